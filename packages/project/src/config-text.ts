/**
 * The text of a `wfkit.config.json`, read into settings, or into every problem with its
 * place (a config with three mistakes is fixed in one round, not three). Pure: no file system,
 * no paths resolved (see project.ts for that).
 *
 *   {
 *     "catalogue": "catalogue.json",            // relative to this config file
 *     "severity": { "dead-end": "off" },        // "off" | "warning" | "error", warnings only
 *     "ignore": ["drafts/**", "**\/*.old.wf"],  // globs relative to this config file
 *     "baseUrl": "https://example.test"          // the Workflows API for deploy, run, runs...
 *   }
 *
 * Comments and trailing commas are allowed. The value is read from jsonc-parser's tree, not
 * from an object it built: an object built from `{"__proto__": {...}}` inherits what that key
 * holds, and a config must never honour a setting it does not state as its own.
 *
 * A problem names the place (line and column) and the kind of mistake; it quotes no value
 * from the file, and quotes a key only when it is short and shaped like a name (see
 * `quotedName`), so a config pointed at a file of secrets never prints them.
 */
import { parseTree, printParseErrorCode, type Node, type ParseError } from "jsonc-parser";
import { Suggester } from "@wfkit/core";
import { closestCode, defaultSeverityOf, knownCodes } from "./codes.js";
import { lineColumnAt, type TextPlace } from "./text-place.js";

export type SeveritySetting = "off" | "warning" | "error";
const SEVERITY_SETTINGS: ReadonlySet<string> = new Set<SeveritySetting>(["off", "warning", "error"]);
/** `$schema` lets editors validate the file; it means nothing to wfkit. */
const CONFIG_KEYS = ["catalogue", "severity", "ignore", "baseUrl", "$schema"] as const;
const CONFIG_KEY_SET: ReadonlySet<string> = new Set(CONFIG_KEYS);
const keySuggester = new Suggester();

export interface ConfigSettings {
  /** The catalogue path as written (relative to the config file). */
  catalogue?: string;
  severity: ReadonlyMap<string, SeveritySetting>;
  /** Glob patterns as written (relative to the config file). */
  ignore: readonly string[];
  /** The Workflows API's base address (http or https, no query or fragment). */
  baseUrl?: string;
}

export interface ConfigProblem extends TextPlace {
  message: string;
}

/** Refused: `problems` in the order of the text (at least one); `problem` is the first. */
export type ConfigParse = { ok: true; settings: ConfigSettings } | { ok: false; problem: ConfigProblem; problems: ConfigProblem[] };

/** A mistake at an offset of the config's text, before its line and column are worked out. */
class OffsetProblem {
  constructor(
    readonly offset: number,
    readonly message: string,
  ) {}
}

export function parseConfigText(text: string): ConfigParse {
  const found: OffsetProblem[] = [];
  let settings: ConfigSettings;
  try {
    settings = readConfig(text, (problem) => found.push(problem));
  } catch (error) {
    if (!(error instanceof OffsetProblem)) throw error;
    found.push(error);
  }
  if (!found.length) return { ok: true, settings: settings! };
  const problems = found.map((problem) => ({ ...lineColumnAt(text, problem.offset), message: problem.message }));
  return { ok: false, problem: problems[0]!, problems };
}

/**
 * Reads the settings, handing each mistake to `refuse` and going on to the next key, so that
 * all are reported at once; a text that is not a JSON object is thrown at once (there is
 * nothing further to judge). Syntax errors are all reported, and then nothing else: the
 * tree around them is a guess.
 */
function readConfig(text: string, refuse: (problem: OffsetProblem) => void): ConfigSettings {
  const errors: ParseError[] = [];
  let root: Node | undefined;
  try {
    root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false });
  } catch (error) {
    // jsonc-parser recurses per nesting level; thousands of levels overflow the stack.
    if (error instanceof RangeError) throw new OffsetProblem(0, "not valid JSON (nested too deeply to read)");
    throw error;
  }
  if (errors.length) {
    for (const error of errors) refuse(new OffsetProblem(error.offset, `not valid JSON (${printParseErrorCode(error.error)})`));
    return { severity: new Map(), ignore: [] };
  }
  if (!root || root.type !== "object") throw new OffsetProblem(root?.offset ?? 0, "must hold a JSON object");

  const settings: { catalogue?: string; severity: Map<string, SeveritySetting>; ignore: string[]; baseUrl?: string } = { severity: new Map(), ignore: [] };
  for (const [key, keyNode, value] of membersOf(root)) {
    if (!CONFIG_KEY_SET.has(key)) {
      const close = keySuggester.closest(key, CONFIG_KEYS);
      refuse(new OffsetProblem(keyNode.offset, `unknown key ${quotedName(key)}${close ? `; did you mean \`${close}\`?` : ""} (a config may have: catalogue, severity, ignore, baseUrl)`));
    } else if (key === "catalogue") {
      if (value.type !== "string" || value.value === "") refuse(new OffsetProblem(value.offset, "`catalogue` must be the path of a catalogue file, relative to the config"));
      else settings.catalogue = value.value as string;
    } else if (key === "severity") {
      if (value.type !== "object") refuse(new OffsetProblem(value.offset, '`severity` must be an object such as {"dead-end": "off"}'));
      else {
        settings.severity = new Map();
        for (const [code, codeNode, setting] of membersOf(value)) {
          const severity = severitySetting(code, codeNode, setting, refuse);
          if (severity !== undefined) settings.severity.set(code, severity);
        }
      }
    } else if (key === "ignore") {
      if (value.type !== "array") refuse(new OffsetProblem(value.offset, '`ignore` must be an array of glob patterns such as ["drafts/**"]'));
      else {
        settings.ignore = [];
        for (const pattern of value.children ?? []) {
          if (pattern.type !== "string" || pattern.value === "") refuse(new OffsetProblem(pattern.offset, 'each `ignore` entry must be a glob pattern (a non-empty string) such as "drafts/**"'));
          else settings.ignore.push(pattern.value as string);
        }
      }
    } else if (key === "baseUrl") {
      if (value.type !== "string" || !isServiceUrl(value.value as string))
        refuse(new OffsetProblem(value.offset, '`baseUrl` must be the http or https address of the Workflows API, such as "https://example.test" (no query or fragment)'));
      else settings.baseUrl = value.value as string;
    }
  }
  return settings;
}

/** An http(s) URL with a host and neither query nor fragment (paths are joined onto it). */
export function isServiceUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  return (url.protocol === "http:" || url.protocol === "https:") && url.host !== "" && url.search === "" && url.hash === "" && url.username === "" && url.password === "";
}

/** A code's setting, or undefined after handing its mistake to `refuse`. */
function severitySetting(code: string, codeNode: Node, setting: Node, refuse: (problem: OffsetProblem) => void): SeveritySetting | undefined {
  const defaultSeverity = defaultSeverityOf(code);
  if (!defaultSeverity) {
    const close = closestCode(code);
    refuse(new OffsetProblem(codeNode.offset, `\`severity\` names ${quotedName(code)}, which is not a wfkit fault code${close ? `; did you mean \`${close}\`?` : ` (${someWarnings()})`}`));
    return undefined;
  }
  if (setting.type !== "string" || !SEVERITY_SETTINGS.has(setting.value as string)) {
    refuse(new OffsetProblem(setting.offset, `\`severity.${code}\` must be "off", "warning" or "error"`));
    return undefined;
  }
  if (defaultSeverity === "error" && setting.value !== "error") {
    refuse(
      new OffsetProblem(
        setting.offset,
        `\`severity.${code}\` cannot be "${setting.value as string}": \`${code}\` is an error, and the service refuses such a graph whatever wfkit says; only warnings can be configured`,
      ),
    );
    return undefined;
  }
  return setting.value as SeveritySetting;
}

/** How many codes of the list a message names before saying how many more there are. */
const LISTED_CODES = 4;

/**
 * The codes worth setting, briefly: a few of the warnings (the only codes a config can turn
 * off or raise) and how many more, and where all are listed; never the whole list on one line.
 */
function someWarnings(): string {
  const warnings = knownCodes().filter((code) => defaultSeverityOf(code) === "warning");
  const more = warnings.length - LISTED_CODES;
  return `a config sets warnings, such as ${warnings.slice(0, LISTED_CODES).join(", ")}${more > 0 ? ` and ${more} more` : ""}; docs/rules.md lists every code`;
}

/** An object node's members as [key, key node, value node]; a later duplicate key wins, as in JSON.parse. */
function* membersOf(object: Node): Generator<[string, Node, Node]> {
  for (const property of object.children ?? []) {
    const [keyNode, valueNode] = property.children ?? [];
    if (keyNode && valueNode) yield [keyNode.value as string, keyNode, valueNode];
  }
}

/**
 * A key or code from the file, quoted when it is shaped like a name (at most 32 letters,
 * digits, `_`, `$`, `-`, `.`), else described: the place already says which one it is, and a
 * long opaque string may be a secret the config was pointed at by mistake.
 */
export function quotedName(name: string): string {
  return /^[\w$.-]{1,32}$/.test(name) ? `\`${name}\`` : "a key";
}
