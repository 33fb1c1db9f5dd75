/**
 * Which files a command works on, from the paths and globs the user gave.
 *
 * - A path to a file always counts, whatever its name: the user asked for it.
 * - A directory is walked (skipping `node_modules` and `.git`, and not following symbolic
 *   links to directories, so a link cycle cannot trap the walk). In it, a file counts when
 *   it is `*.wf`, `*.workflow.json`, a Consumer Signals body (`*.alert.json`, `*.view.json`),
 *   or a `.json` file that looks like a definition: its top-level object has a
 *   `schemaVersion` or `scope` key, or both `nodes` and `edges`, or a `$schema` naming the
 *   published alert or view schema.
 *   Only the top-level keys are read, leniently, so a definition with a syntax error still
 *   counts (and is reported) while package.json, tsconfig.json or a catalogue never do.
 * - A pattern that is not an existing path but contains glob characters is matched (with
 *   picomatch) against the files under its static base directory; matches count by the
 *   same rule as a directory walk.
 * - Files that `--ignore` or a wfkit.config.json `ignore`s are left out, and a walk does not
 *   enter an ignored directory at all (so no config inside it is read); the caller's
 *   `ignores` (the project's resolver) says which those are.
 *
 * Results keep the order of the arguments; within a directory or glob they are sorted, so
 * output is the same on every machine. A file named twice is checked once.
 */
import { readdir, readFile, stat } from "./fs-lazy.js";
import path from "node:path";
import { visit } from "jsonc-parser";
import picomatch from "picomatch/posix.js";
import { bodyKindOf } from "@wfkit/core";
import { CliError, describeFsError } from "./errors.js";

export interface InputFile {
  absolutePath: string;
  /** Relative to the working directory, `/`-separated (what users and CI tools expect). */
  displayPath: string;
}

/** Which files a walk picks up: all definitions (check), or only `.wf` sources (fmt). */
export type WalkKind = "definitions" | "wf-sources";

/** What is left out: answered by @wfkit/project's resolver, through the CLI's ConfigResolver. */
export interface Ignores {
  isIgnored(absolutePath: string): boolean;
  isIgnoredDirectory(absolutePath: string): boolean;
}

export interface CollectOptions {
  cwd: string;
  kind: WalkKind;
  ignores?: Ignores;
}

export interface Collected {
  files: InputFile[];
  /** Files that matched but a config ignores (reported so `check` can explain an empty run). */
  ignored: number;
}

const SKIPPED_DIRECTORIES = new Set(["node_modules", ".git"]);

export function displayPathOf(absolutePath: string, cwd: string): string {
  // path.relative gives an absolute path only across Windows drives; it is shown as it is.
  const relative = path.relative(cwd, absolutePath) || ".";
  return relative.split(path.sep).join("/");
}

export async function collectFiles(patterns: readonly string[], options: CollectOptions): Promise<Collected> {
  const seen = new Set<string>();
  const files: InputFile[] = [];
  let ignored = 0;
  const add = (absolutePath: string) => {
    if (seen.has(absolutePath)) return;
    seen.add(absolutePath);
    if (options.ignores?.isIgnored(absolutePath)) {
      ignored++;
      return;
    }
    files.push({ absolutePath, displayPath: displayPathOf(absolutePath, options.cwd) });
  };

  for (const pattern of patterns) {
    const absolute = path.resolve(options.cwd, pattern);
    const info = await stat(absolute).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT" || error.code === "ENOTDIR") return undefined;
      throw new CliError(describeFsError(error, pattern));
    });
    if (info?.isFile()) {
      add(absolute);
    } else if (info?.isDirectory()) {
      const found = await walk(absolute, options, () => true);
      if (!found.length) throw new CliError(`${pattern}: no workflow definitions found (looked for ${describeKind(options.kind)})`);
      found.forEach(add);
    } else if (info) {
      throw new CliError(`${pattern}: not a file or directory`);
    } else if (picomatch.scan(pattern).isGlob) {
      const found = await matchGlob(pattern, options);
      if (!found.length) throw new CliError(`${pattern}: no workflow definitions match this pattern`);
      found.forEach(add);
    } else {
      throw new CliError(`${pattern}: no such file or directory`);
    }
  }
  return { files, ignored };
}

function describeKind(kind: WalkKind): string {
  return kind === "wf-sources" ? "*.wf" : "*.wf, *.workflow.json, *.alert.json, *.view.json and .json definitions";
}

async function matchGlob(pattern: string, options: CollectOptions): Promise<string[]> {
  const normalized = pattern.split(path.sep).join("/");
  const { base } = picomatch.scan(normalized);
  const root = path.resolve(options.cwd, base || ".");
  const matcher = picomatch(normalized.startsWith("./") ? normalized.slice(2) : normalized);
  // Match the path as the user would write it: relative to the working directory, unless
  // the pattern itself is absolute.
  const absolutePattern = path.isAbsolute(pattern);
  return walk(root, options, (absolutePath) => matcher(absolutePattern ? absolutePath.split(path.sep).join("/") : displayPathOf(absolutePath, options.cwd)));
}

/** All files under `directory` that count for `kind`, sorted; ignored directories are not entered. */
async function walk(directory: string, { kind, ignores }: CollectOptions, matches: (absolutePath: string) => boolean): Promise<string[]> {
  const found: string[] = [];
  const pending = [directory];
  while (pending.length) {
    const current = pending.pop()!;
    let entries;
    try {
      entries = await readdir(current, { withFileTypes: true });
    } catch (error) {
      throw new CliError(describeFsError(error, current));
    }
    for (const entry of entries) {
      const absolutePath = path.join(current, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRECTORIES.has(entry.name) && !ignores?.isIgnoredDirectory(absolutePath)) pending.push(absolutePath);
      } else if (entry.isFile() || (entry.isSymbolicLink() && (await stat(absolutePath).catch(() => undefined))?.isFile())) {
        if (matches(absolutePath) && (await counts(absolutePath, kind))) found.push(absolutePath);
      }
    }
  }
  return found.sort(compareCodeUnits);
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

async function counts(absolutePath: string, kind: WalkKind): Promise<boolean> {
  const name = path.basename(absolutePath);
  if (name.endsWith(".wf")) return true;
  if (kind === "wf-sources") return false;
  if (name.endsWith(".workflow.json") || bodyKindOf(name, undefined) !== "definition") return true;
  if (!name.endsWith(".json")) return false;
  const text = await readFile(absolutePath, "utf8").catch(() => "");
  return looksLikeDefinition(text);
}

/**
 * True when the top-level object of a JSON text has the keys of a definition or save body, or
 * a `$schema` naming the published alert or view schema.
 */
export function looksLikeDefinition(text: string): boolean {
  const keys = new Set<string>();
  let schema: string | undefined;
  let schemaIsNext = false;
  try {
    visit(
      text,
      {
        // (Returning false from onArrayBegin to skip nested values would be faster, but in
        // jsonc-parser 3.3 it also loses the keys after the skipped array.)
        onObjectProperty: (property, _offset, _length, _line, _character, pathSupplier) => {
          if (pathSupplier().length !== 0) return;
          keys.add(property);
          schemaIsNext = property === "$schema";
        },
        // Only the value right after a top-level `$schema` key is read: no path per literal.
        onLiteralValue: (value) => {
          if (schemaIsNext && typeof value === "string") schema = value;
          schemaIsNext = false;
        },
        onObjectBegin: () => {
          schemaIsNext = false;
        },
        onArrayBegin: () => {
          schemaIsNext = false;
        },
      },
      { allowTrailingComma: true, disallowComments: false },
    );
  } catch (error) {
    // jsonc-parser recurses per nesting level: a file nested thousands of levels deep
    // overflows the stack. Judge it by the keys read before that; `check` then reports it.
    if (!(error instanceof RangeError)) throw error;
  }
  if (schema !== undefined && bodyKindOf(undefined, { $schema: schema }) !== "definition") return true;
  return keys.has("schemaVersion") || keys.has("scope") || (keys.has("nodes") && keys.has("edges"));
}

/** The language of a source: `.wf` by its name; `.json` by its name, or by a leading `{` or `[`. */
export function languageOf(fileName: string, text: string): "wf" | "json" {
  const lower = fileName.toLowerCase();
  if (lower.endsWith(".wf")) return "wf";
  if (lower.endsWith(".json") || lower.endsWith(".jsonc")) return "json";
  return /^\ufeff?\s*[{[]/.test(text) ? "json" : "wf";
}
