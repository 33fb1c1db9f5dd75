/**
 * `wfkit.config.json`: per-project settings, found by walking up from each checked file to
 * the filesystem root (the nearest one wins; configs do not merge, so what applies to a file
 * is always one file you can read). Comments and trailing commas are allowed in it.
 *
 *   {
 *     "catalogue": "catalogue.json",            // relative to this config file
 *     "severity": { "dead-end": "off" },        // "off" | "warning" | "error", warnings only
 *     "ignore": ["drafts/**", "**\/*.old.wf"]   // globs relative to this config file
 *   }
 *
 * Flags win over the config (`--catalogue` over `catalogue`). A config that cannot be read or
 * says something wrong stops the run with exit code 2: checking with half a config would
 * give answers the user did not ask for.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { parse, printParseErrorCode, type ParseError } from "jsonc-parser";
import picomatch from "picomatch/posix.js";
import { defaultSeverityOf, knownCodes } from "./codes.js";
import { CliError, describeFsError } from "./errors.js";
import { displayPathOf } from "./files.js";

export const CONFIG_FILE_NAME = "wfkit.config.json";

export type SeveritySetting = "off" | "warning" | "error";
const SEVERITY_SETTINGS: readonly SeveritySetting[] = ["off", "warning", "error"];
const KNOWN_KEYS = ["$schema", "catalogue", "severity", "ignore"];

export interface Config {
  /** Absolute path of the config file. */
  path: string;
  /** Absolute path of the catalogue it names, if any. */
  catalogue?: string;
  severity: ReadonlyMap<string, SeveritySetting>;
  ignorePatterns: readonly string[];
  isIgnored(absolutePath: string): boolean;
}

/** Finds and loads configs, reading each directory and each config file at most once. */
export class ConfigResolver {
  private readonly byDirectory = new Map<string, Config | undefined>();
  private readonly explicit: Config | undefined;

  /** `explicitPath`: `--config FILE`, used for every file instead of searching. */
  constructor(
    private readonly cwd: string,
    explicitPath?: string,
  ) {
    if (explicitPath !== undefined) this.explicit = loadConfig(path.resolve(cwd, explicitPath), cwd);
  }

  /** The config that applies to a file (which need not exist: stdin has a name only). */
  configFor(absoluteFilePath: string): Config | undefined {
    return this.explicit ?? this.configOfDirectory(path.dirname(absoluteFilePath));
  }

  isIgnored = (absoluteFilePath: string): boolean => this.configFor(absoluteFilePath)?.isIgnored(absoluteFilePath) ?? false;

  private configOfDirectory(directory: string): Config | undefined {
    if (this.byDirectory.has(directory)) return this.byDirectory.get(directory);
    const candidate = path.join(directory, CONFIG_FILE_NAME);
    let config: Config | undefined;
    let text: string | undefined;
    try {
      text = readFileSync(candidate, "utf8");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") throw new CliError(describeFsError(error, displayPathOf(candidate, this.cwd)));
    }
    if (text !== undefined) config = parseConfig(text, candidate, this.cwd);
    else {
      const parent = path.dirname(directory);
      config = parent === directory ? undefined : this.configOfDirectory(parent);
    }
    this.byDirectory.set(directory, config);
    return config;
  }
}

export function loadConfig(absolutePath: string, cwd: string): Config {
  let text: string;
  try {
    text = readFileSync(absolutePath, "utf8");
  } catch (error) {
    throw new CliError(describeFsError(error, displayPathOf(absolutePath, cwd)));
  }
  return parseConfig(text, absolutePath, cwd);
}

/** Reads and checks a config's text; every problem is a CliError naming the file and place. */
export function parseConfig(text: string, absolutePath: string, cwd: string): Config {
  const shown = displayPathOf(absolutePath, cwd);
  const fail = (message: string): never => {
    throw new CliError(`${shown}: ${message}`);
  };
  const errors: ParseError[] = [];
  let value: unknown;
  try {
    value = parse(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false });
  } catch (error) {
    // jsonc-parser recurses per nesting level; thousands of levels overflow the stack.
    if (error instanceof RangeError) return fail("not valid JSON (nested too deeply to read)");
    throw error;
  }
  if (errors.length) {
    const first = errors[0]!;
    const before = text.slice(0, first.offset).split(/\r\n|\r|\n/);
    fail(`${before.length}:${before[before.length - 1]!.length + 1}: not valid JSON (${printParseErrorCode(first.error)})`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return fail("must hold a JSON object");
  const object = value as Record<string, unknown>;
  for (const key of Object.keys(object))
    if (!KNOWN_KEYS.includes(key)) fail(`unknown key \`${key}\` (a config may have: ${KNOWN_KEYS.slice(1).join(", ")})`);

  const directory = path.dirname(absolutePath);
  const config: Config = { path: absolutePath, severity: new Map(), ignorePatterns: [], isIgnored: () => false };

  if (object.catalogue !== undefined) {
    if (typeof object.catalogue !== "string" || object.catalogue === "") fail("`catalogue` must be the path of a catalogue file, relative to the config");
    config.catalogue = path.resolve(directory, object.catalogue as string);
  }

  if (object.severity !== undefined) {
    if (typeof object.severity !== "object" || object.severity === null || Array.isArray(object.severity))
      fail('`severity` must be an object such as {"dead-end": "off"}');
    const severity = new Map<string, SeveritySetting>();
    for (const [code, setting] of Object.entries(object.severity as Record<string, unknown>)) {
      const defaultSeverity = defaultSeverityOf(code);
      if (!defaultSeverity) fail(`\`severity\` names \`${code}\`, which is not a wfkit fault code (known codes: ${knownCodes().join(", ")})`);
      if (!SEVERITY_SETTINGS.includes(setting as SeveritySetting)) fail(`\`severity.${code}\` must be "off", "warning" or "error" (got ${JSON.stringify(setting)})`);
      if (defaultSeverity === "error" && setting !== "error")
        fail(`\`severity.${code}\` cannot be ${JSON.stringify(setting)}: \`${code}\` is an error, and the service refuses such a graph whatever wfkit says; only warnings can be configured`);
      severity.set(code, setting as SeveritySetting);
    }
    config.severity = severity;
  }

  if (object.ignore !== undefined) {
    if (!Array.isArray(object.ignore) || object.ignore.some((pattern) => typeof pattern !== "string" || pattern === ""))
      fail('`ignore` must be an array of glob patterns such as ["drafts/**"]');
    const patterns = object.ignore as string[];
    const matcher = picomatch(patterns, { dot: true });
    config.ignorePatterns = patterns;
    config.isIgnored = (file) => {
      const relative = path.relative(directory, file).split(path.sep).join("/");
      return !relative.startsWith("../") && matcher(relative);
    };
  }
  return config;
}
