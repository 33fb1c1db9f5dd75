/**
 * What applies to a file in a project: the `wfkit.config.json` that governs it, whether it is
 * ignored, and the catalogue it is checked against. The CLI and the language server both ask
 * a `ProjectResolver`, so they never disagree about a file.
 *
 * - The config of a file is the nearest `wfkit.config.json` walking up from its directory
 *   (configs do not merge: what applies to a file is one file you can read), or the one given
 *   explicitly (`--config`), which then applies to every file.
 * - A file is ignored when the `--ignore` patterns (relative to the working directory) or its
 *   config's `ignore` patterns (relative to the config) match it or a directory above it.
 *   Directories are judged from the top down: once a directory is ignored, nothing under it
 *   counts and no config under it is even read, so a broken config in an ignored folder (a
 *   test fixture, say) cannot stop a run. A directory that holds the working directory is
 *   never ignored: the user is working in it. A file asked for by name in an ignored
 *   directory (standard input's name, an editor's document) gets the config above that
 *   directory, the last one read.
 * - Settings are read once per config file, directories once each.
 *
 * Problems are thrown as `ProjectError`, carrying a `FileProblem` that names the file, the
 * place in it and the mistake; never the file's content.
 */
import path from "node:path";
import picomatch from "picomatch/posix.js";
import { parseConfigText, type SeveritySetting } from "./config-text.js";
import type { FileProblem } from "./catalogue-file.js";
import type { FilePolicy } from "./policy.js";
import { readRegularFile } from "./read-file.js";

export const CONFIG_FILE_NAME = "wfkit.config.json";

export interface ProjectConfig {
  /** Absolute path of the config file. */
  path: string;
  /** Absolute path of the catalogue it names, if any. */
  catalogue?: string;
  severity: ReadonlyMap<string, SeveritySetting>;
  ignorePatterns: readonly string[];
  /** The Workflows API's base address (`baseUrl`), for the commands that call it. */
  baseUrl?: string;
  /** True when its `ignore` patterns match the path (a file or a directory under the config). */
  ignores(absolutePath: string): boolean;
}

export class ProjectError extends Error {
  override readonly name = "ProjectError";
  constructor(
    readonly problem: FileProblem,
    /** Every problem found in the file, `problem` first (a config's mistakes are all reported at once). */
    readonly problems: readonly FileProblem[] = [problem],
  ) {
    super(`${problem.path}: ${problem.message}`);
  }
}

export interface ProjectOptions {
  /** The working directory: directories holding it are never ignored. */
  cwd: string;
  /** An explicit config (absolute), used for every file instead of searching. */
  explicitConfig?: string | undefined;
  /** The `--ignore` patterns, relative to `cwd`. */
  ignorePatterns?: readonly string[];
}

interface DirectoryState {
  config: ProjectConfig | undefined;
  ignored: boolean;
}

const ROOT_STATE: DirectoryState = { config: undefined, ignored: false };

export class ProjectResolver {
  private readonly directories = new Map<string, DirectoryState>();
  private readonly explicit: ProjectConfig | undefined;
  private readonly flagIgnores: ((absolutePath: string) => boolean) | undefined;

  constructor(private readonly options: ProjectOptions) {
    if (options.explicitConfig !== undefined) this.explicit = loadConfigFile(options.explicitConfig, { missingIsProblem: true })!;
    const patterns = options.ignorePatterns ?? [];
    this.flagIgnores = patterns.length ? globMatcher(patterns, options.cwd, { outside: true }) : undefined;
  }

  /** The config that applies to a file (which need not exist: stdin has a name only). */
  configFor(absoluteFilePath: string): ProjectConfig | undefined {
    return this.explicit ?? this.stateOf(path.dirname(absoluteFilePath)).config;
  }

  /** True when the file, or a directory above it, is ignored by `--ignore` or its config. */
  isIgnored = (absoluteFilePath: string): boolean => {
    const directory = this.stateOf(path.dirname(absoluteFilePath));
    if (directory.ignored) return true;
    const config = this.explicit ?? directory.config;
    return (this.flagIgnores?.(absoluteFilePath) ?? false) || (config?.ignores(absoluteFilePath) ?? false);
  };

  /** True when a walk must not enter the directory. */
  isIgnoredDirectory = (absoluteDirectory: string): boolean => this.stateOf(absoluteDirectory).ignored;

  private stateOf(directory: string): DirectoryState {
    const known = this.directories.get(directory);
    if (known) return known;
    const parent = path.dirname(directory);
    const above = parent === directory ? ROOT_STATE : this.stateOf(parent);
    let state: DirectoryState;
    if (above.ignored) state = above;
    else if (!holds(directory, this.options.cwd) && this.ignoresDirectory(directory, above.config)) state = { config: above.config, ignored: true };
    else if (this.explicit) state = ROOT_STATE;
    else {
      const found = loadConfigFile(path.join(directory, CONFIG_FILE_NAME), { missingIsProblem: false });
      state = found ? { config: found, ignored: false } : above;
    }
    this.directories.set(directory, state);
    return state;
  }

  private ignoresDirectory(directory: string, governing: ProjectConfig | undefined): boolean {
    if (this.flagIgnores?.(directory)) return true;
    return (this.explicit ?? governing)?.ignores(directory) ?? false;
  }
}

/** True when `directory` is `inner` or one of its ancestors. */
function holds(directory: string, inner: string): boolean {
  if (directory === inner) return true;
  const prefix = directory.endsWith(path.sep) ? directory : directory + path.sep;
  return inner.startsWith(prefix);
}

/** Reads a config; undefined when it does not exist and need not. */
export function loadConfigFile(absolutePath: string, { missingIsProblem }: { missingIsProblem: boolean }): ProjectConfig | undefined {
  const read = readRegularFile(absolutePath);
  if (!read.ok) {
    if (read.missing && !missingIsProblem) return undefined;
    throw new ProjectError({ path: absolutePath, message: read.reason });
  }
  return configFromText(read.text, absolutePath);
}

export function configFromText(text: string, absolutePath: string): ProjectConfig {
  const parsed = parseConfigText(text);
  if (!parsed.ok) {
    const problems = parsed.problems.map(({ line, column, message }) => ({ path: absolutePath, place: { line, column }, message }));
    throw new ProjectError(problems[0]!, problems);
  }
  const directory = path.dirname(absolutePath);
  const { settings } = parsed;
  const config: ProjectConfig = { path: absolutePath, severity: settings.severity, ignorePatterns: settings.ignore, ignores: () => false };
  if (settings.catalogue !== undefined) config.catalogue = path.resolve(directory, settings.catalogue);
  if (settings.baseUrl !== undefined) config.baseUrl = settings.baseUrl;
  if (settings.ignore.length) config.ignores = globMatcher(settings.ignore, directory, { outside: false });
  return config;
}

/**
 * picomatch globs matched against paths relative to `base`, `/`-separated, as wfkit shows
 * them. A config's patterns match nothing outside its directory; `--ignore` patterns may
 * name `../` paths, as the user sees them.
 */
function globMatcher(patterns: readonly string[], base: string, { outside }: { outside: boolean }): (absolutePath: string) => boolean {
  const matcher = picomatch(
    patterns.map((pattern) => pattern.split(path.sep).join("/").replace(/^\.\//, "")),
    { dot: true },
  );
  return (absolutePath) => {
    const relative = path.relative(base, absolutePath).split(path.sep).join("/");
    if (relative === "") return false;
    return (outside || (relative !== ".." && !relative.startsWith("../") && !path.isAbsolute(relative))) && matcher(relative);
  };
}

/** What a file is checked with: its config (if any), its catalogue's path, its policy. */
export interface FileProject {
  config: ProjectConfig | undefined;
  /** Absolute path of the catalogue (the override, else the config's); the sample when undefined. */
  cataloguePath: string | undefined;
  policy: FilePolicy;
}

/** `catalogueOverride`: `--catalogue` or the editor's `wfkit.catalogue`, absolute; it wins over the config. */
export function fileProjectOf(resolver: ProjectResolver, absoluteFilePath: string, catalogueOverride: string | undefined): FileProject {
  const config = resolver.configFor(absoluteFilePath);
  return {
    config,
    cataloguePath: catalogueOverride ?? config?.catalogue,
    policy: { severity: config?.severity ?? new Map() },
  };
}
