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
import { readdirSync, readFileSync, statSync, type Dirent, type Stats } from "node:fs";
import path from "node:path";
import { visit } from "jsonc-parser";
import picomatch from "picomatch/posix.js";
import { bodyKindOf } from "@wfkit/core";
import type { AnalyzeOptions } from "@wfkit/dsl";
import { CliError, describeFsError } from "./errors.js";

export interface InputFile<T = never> {
  absolutePath: string;
  /** Relative to the working directory, `/`-separated (what users and CI tools expect). */
  displayPath: string;
  /**
   * What the walk read to decide that the file counts (a `.json` file judged by its keys), so
   * that a check reads it no second time: its text, and what the scan of strict JSON found.
   */
  read?: ReadAlready;
  /** What `CollectOptions.take` made of the file when the walk read it (then `read` is absent). */
  taken?: T;
}

export interface ReadAlready {
  text: string;
  /** Present when the text is strict JSON (see `scanStrictJson`). */
  scannedJson?: ScannedJson;
}

/** What @wfkit/dsl takes from a scan of a JSON text (`parseJsonSource`'s `ScannedJson`). */
export type ScannedJson = NonNullable<AnalyzeOptions["scannedJson"]>;

/** Which files a walk picks up: all definitions (check), or only `.wf` sources (fmt). */
export type WalkKind = "definitions" | "wf-sources";

/** What is left out: answered by @wfkit/project's resolver, through the CLI's ConfigResolver. */
export interface Ignores {
  isIgnored(absolutePath: string): boolean;
  isIgnoredDirectory(absolutePath: string): boolean;
}

export interface CollectOptions<T = never> {
  cwd: string;
  kind: WalkKind;
  ignores?: Ignores;
  /**
   * `check --skip-other-json`, what the pre-commit hook runs: a `.json` file named as a path
   * counts only when a directory walk would count it (`counts`: a definition, an alert or a
   * view body), so that a hook handed every staged `.json` file passes over package.json,
   * tsconfig.json or a catalogue without a word.
   */
  skipOtherJson?: boolean;
  /**
   * Called with each file whose text the walk read to decide that it counts, right after it
   * was read, unless the file is ignored or already found (`check` checks it there and then,
   * so that no text is kept, nor read twice). What it returns is the file's `taken`, and the
   * text is not kept; undefined leaves the file as if there were no `take`. A file handed to
   * `take` need not have been scanned: a text that opens with a key that decides is not.
   */
  take?: ((absolutePath: string, read: ReadAlready) => T | undefined) | undefined;
}

export interface Collected<T = never> {
  files: InputFile<T>[];
  /** Files that matched but a config ignores (reported so `check` can explain an empty run). */
  ignored: number;
  /** Named `.json` files `skipOtherJson` passed over. */
  skipped: number;
}

const SKIPPED_DIRECTORIES = new Set(["node_modules", ".git"]);

/**
 * The most text (in UTF-16 code units) a walk keeps for the check: up to this, a file whose
 * text decided that it counts is read once; past it, the check reads it again. Reading is cheap
 * (about 20 µs for a file of 20 KB) and keeping every text is not: 10,000 files of 20 KB held
 * about 180 MB more at the peak, for no time saved (docs/performance.md).
 */
export const KEPT_TEXT_BUDGET = 64 * 2 ** 20;

export function displayPathOf(absolutePath: string, cwd: string): string {
  // path.relative gives an absolute path only across Windows drives; it is shown as it is.
  const relative = path.relative(cwd, absolutePath) || ".";
  return relative.split(path.sep).join("/");
}

export async function collectFiles<T = never>(patterns: readonly string[], options: CollectOptions<T>): Promise<Collected<T>> {
  const seen = new Set<string>();
  const { take, ignores } = options;
  const sink: Sink<T> = {
    budget: { chars: KEPT_TEXT_BUDGET },
    // Not for a file that `add` will drop. An ignore that fails here fails again in `add`, in
    // its turn: errors come where they came without `take`.
    take:
      take &&
      ((absolutePath, read) => {
        if (seen.has(absolutePath)) return undefined;
        try {
          if (ignores?.isIgnored(absolutePath)) return undefined;
        } catch {
          return undefined;
        }
        return take(absolutePath, read);
      }),
  };
  const files: InputFile<T>[] = [];
  let ignored = 0;
  let skipped = 0;
  const add = (absolutePath: string, read?: ReadAlready, taken?: T) => {
    if (seen.has(absolutePath)) return;
    seen.add(absolutePath);
    if (options.ignores?.isIgnored(absolutePath)) {
      ignored++;
      return;
    }
    const file: InputFile<T> = { absolutePath, displayPath: displayPathOf(absolutePath, options.cwd) };
    if (read) file.read = read;
    if (taken !== undefined) file.taken = taken;
    files.push(file);
  };

  for (const pattern of patterns) {
    const absolute = path.resolve(options.cwd, pattern);
    // Synchronously, as the walk reads directories and files: on a busy machine each trip
    // through the thread pool waits for a core, and nothing else runs meanwhile anyway.
    let info: Stats | undefined;
    try {
      info = statSync(absolute);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") throw new CliError(describeFsError(error, pattern));
    }
    if (info?.isFile()) {
      if (options.skipOtherJson && options.kind === "definitions" && absolute.toLowerCase().endsWith(".json")) {
        // Judged as a directory walk judges it, by the walk's own decision.
        const decided = counts(absolute, path.basename(absolute), options.kind, sink.take !== undefined);
        if (decided) {
          const entry = settle(absolute, decided, sink);
          add(absolute, entry.read, entry.taken);
        } else skipped++;
      } else add(absolute);
    } else if (info?.isDirectory()) {
      const found = walk(absolute, options, sink, () => true);
      if (!found.length) throw new CliError(`${pattern}: no workflow definitions found (looked for ${describeKind(options.kind)})`);
      for (const entry of found) add(entry.absolutePath, entry.read, entry.taken);
    } else if (info) {
      throw new CliError(`${pattern}: not a file or directory`);
    } else if (picomatch.scan(pattern).isGlob) {
      const found = matchGlob(pattern, options, sink);
      if (!found.length) throw new CliError(`${pattern}: no workflow definitions match this pattern`);
      for (const entry of found) add(entry.absolutePath, entry.read, entry.taken);
    } else {
      throw new CliError(`${pattern}: no such file or directory`);
    }
  }
  return { files, ignored, skipped };
}

function describeKind(kind: WalkKind): string {
  return kind === "wf-sources" ? "*.wf" : "*.wf, *.workflow.json, *.alert.json, *.view.json and .json definitions";
}

/** A file a walk found: its path, and what deciding read of it (kept, or taken). */
interface Found<T> {
  absolutePath: string;
  read: ReadAlready | undefined;
  taken: T | undefined;
}

/** What is left of the text a walk may keep (`KEPT_TEXT_BUDGET`), shared by the walks of one call. */
interface Budget {
  chars: number;
}

/** Where the files a call's walks read go: to `take`, else kept within the budget. */
interface Sink<T> {
  budget: Budget;
  take: ((absolutePath: string, read: ReadAlready) => T | undefined) | undefined;
}

/** A counted file's entry: what was read of it taken, kept (within the budget), or dropped. */
function settle<T>(absolutePath: string, decided: true | ReadAlready, { budget, take }: Sink<T>): Found<T> {
  if (decided === true) return { absolutePath, read: undefined, taken: undefined };
  const taken = take?.(absolutePath, decided);
  if (taken !== undefined) return { absolutePath, read: undefined, taken };
  if (decided.text.length > budget.chars) return { absolutePath, read: undefined, taken: undefined };
  budget.chars -= decided.text.length;
  return { absolutePath, read: decided, taken: undefined };
}

function matchGlob<T>(pattern: string, options: CollectOptions<T>, sink: Sink<T>): Found<T>[] {
  const normalized = pattern.split(path.sep).join("/");
  const { base } = picomatch.scan(normalized);
  const root = path.resolve(options.cwd, base || ".");
  const matcher = picomatch(normalized.startsWith("./") ? normalized.slice(2) : normalized);
  // Match the path as the user would write it: relative to the working directory, unless
  // the pattern itself is absolute.
  const absolutePattern = path.isAbsolute(pattern);
  return walk(root, options, sink, (absolutePath) => matcher(absolutePattern ? absolutePath.split(path.sep).join("/") : displayPathOf(absolutePath, options.cwd)));
}

/** All files under `directory` that count for `kind`, sorted; ignored directories are not entered. */
function walk<T>(directory: string, { kind, ignores }: CollectOptions<T>, sink: Sink<T>, matches: (absolutePath: string) => boolean): Found<T>[] {
  const found: Found<T>[] = [];
  const pending = [directory];
  while (pending.length) {
    const current = pending.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(current, { withFileTypes: true });
    } catch (error) {
      throw new CliError(describeFsError(error, current));
    }
    for (const entry of entries) {
      const absolutePath = path.join(current, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRECTORIES.has(entry.name) && !ignores?.isIgnoredDirectory(absolutePath)) pending.push(absolutePath);
      } else if (entry.isFile() || (entry.isSymbolicLink() && isFileBehindLink(absolutePath))) {
        if (!matches(absolutePath)) continue;
        const decided = counts(absolutePath, entry.name, kind, sink.take !== undefined);
        if (decided) found.push(settle(absolutePath, decided, sink));
      }
    }
  }
  return found.sort(compareFound);
}

/** Whether a symbolic link leads to a regular file (false when it leads nowhere). */
function isFileBehindLink(absolutePath: string): boolean {
  try {
    return statSync(absolutePath).isFile();
  } catch {
    return false;
  }
}

function compareFound<T>(a: Found<T>, b: Found<T>): number {
  return a.absolutePath < b.absolutePath ? -1 : a.absolutePath > b.absolutePath ? 1 : 0;
}

/**
 * Whether a regular file found by a walk counts for `kind`: true by its name; what was read
 * when its text decided (taken, or kept within the budget, so the file is read once); false
 * when it does not count. Read synchronously: a walk reads only regular files, and a promise
 * per file (an open, a stat, a read and a close, each a trip through the thread pool) cost
 * more than the reading.
 *
 * `checkedAtOnce` (a `take`): a text that opens with a key that decides is not scanned. The
 * scan's word on repeated keys spares the check's parse its walk of the parsed value, but
 * costs about four times that walk (docs/performance.md); it is made only to decide.
 */
function counts(absolutePath: string, name: string, kind: WalkKind, checkedAtOnce: boolean): boolean | ReadAlready {
  if (name.endsWith(".wf")) return true;
  if (kind === "wf-sources") return false;
  if (name.endsWith(".workflow.json") || bodyKindOf(name, undefined) !== "definition") return true;
  if (!name.endsWith(".json")) return false;
  let text: string;
  try {
    text = readFileSync(absolutePath, "utf8");
  } catch {
    return false;
  }
  if (checkedAtOnce && opensWithDecidingKey(text)) return { text };
  const scan = scanStrictJson(text);
  if (!decide(text, scan)) return false;
  return scan ? { text, scannedJson: { mayRepeatKeys: scan.mayRepeatKeys } } : { text };
}

/**
 * True when the top-level object of a JSON text has the keys of a definition or save body, or
 * a `$schema` naming the published alert or view schema.
 *
 * Strict JSON (the usual case; a leading byte order mark allowed) is read by
 * `scanStrictJson`, one pass that checks the syntax and keeps the top-level keys without
 * building any value. Any other text (comments, trailing commas, syntax errors, nesting deeper
 * than `SCAN_DEPTH`) goes to jsonc-parser's lenient reader, which decides as before. A
 * property test (packages/cli/test/json-walk.property.test.ts) holds the two to the same answer.
 */
export function looksLikeDefinition(text: string): boolean {
  return opensWithDecidingKey(text) || decide(text, scanStrictJson(text));
}

/**
 * True when the text opens an object whose first key is `schemaVersion` or `scope`, written
 * plainly (`{`, JSON's blanks, the key in quotes): either key alone makes a definition, and
 * both readers see it first at the top level, whatever follows (the strict scan when the whole
 * text is strict JSON, the lenient reader, which reports a key as soon as it reads it,
 * otherwise). So the rest need not be read to decide. No byte order mark: the lenient reader
 * stops at one.
 */
function opensWithDecidingKey(text: string): boolean {
  let at = 0;
  let c = text.charCodeAt(0);
  while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = text.charCodeAt(++at);
  if (c !== 0x7b) return false;
  c = text.charCodeAt(++at);
  while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = text.charCodeAt(++at);
  return c === 0x22 && (text.startsWith('schemaVersion"', at + 1) || text.startsWith('scope"', at + 1));
}

function decide(text: string, scan: StrictJsonScan | undefined): boolean {
  if (scan === undefined) return looksLikeDefinitionLeniently(text);
  if (scan.schema !== undefined && bodyKindOf(undefined, { $schema: scan.schema }) !== "definition") return true;
  const keys = scan.topLevelKeys;
  return keys.includes("schemaVersion") || keys.includes("scope") || (keys.includes("nodes") && keys.includes("edges"));
}

/**
 * What one pass over strict JSON text finds without building its value: the top-level keys,
 * and whether any object may repeat a key. A walk decides by it whether a `.json` file counts,
 * and `check` hands it on to @wfkit/dsl's `parseJsonSource` with the text (`ScannedJson`),
 * which then makes no walk of the parsed value.
 */
export interface StrictJsonScan {
  /** The keys of the top-level object, decoded, in text order (repeats included); empty for any other value. */
  topLevelKeys: string[];
  /** The value of the last top-level `$schema` key whose value is a string. */
  schema: string | undefined;
  /**
   * False when no object repeats a key; true when one may (a key written with an escape
   * counts as a possible repeat); undefined when the scan did not look (an object of more
   * than `SCAN_OBJECT_KEYS` keys).
   */
  mayRepeatKeys: boolean | undefined;
}

/**
 * Deeper than this a text is not scanned (`scanStrictJson` gives undefined): the lenient
 * reader decides it, as it decided every text before (recursing once per level, it stops
 * where the stack ends, past a few thousand). Below @wfkit/dsl's MAX_JSON_DEPTH, as
 * `ScannedJson` requires.
 */
export const SCAN_DEPTH = 512;
/** Keys of one object compared pairwise for repeats; an object with more leaves `mayRepeatKeys` undefined. */
const SCAN_OBJECT_KEYS = 64;

// The scan's state, reused by every scan (one thread, no re-entry, nothing kept between
// scans): per open container its kind (1 an object, 2 an array) and where its keys begin on
// the key stack, which holds the start and end offsets of the keys of the open objects.
let scanKinds: Uint8Array | undefined;
let scanKeyBase: Int32Array;
let scanKeyStart: Int32Array;
let scanKeyEnd: Int32Array;
let scanKeyTop = 0;
let scanRepeats: boolean | undefined = false;
let scanTopLevelKeys: string[] = [];
/** Whether the value about to be read is a top-level `$schema`'s. */
let scanSchemaNext = false;
/** Set by `scanString`: whether the string it read has an escape. */
let scannedEscape = false;

/**
 * One pass over `text` that checks it is strict JSON (what `JSON.parse` takes; a leading byte
 * order mark allowed) and reads what `StrictJsonScan` holds; undefined when the text is not
 * strict JSON or nests deeper than `SCAN_DEPTH`. It builds no value, only the top-level keys.
 */
export function scanStrictJson(text: string): StrictJsonScan | undefined {
  if (!scanKinds) {
    scanKinds = new Uint8Array(SCAN_DEPTH + 1);
    scanKeyBase = new Int32Array(SCAN_DEPTH + 1);
    scanKeyStart = new Int32Array(SCAN_OBJECT_KEYS * (SCAN_DEPTH + 1));
    scanKeyEnd = new Int32Array(SCAN_OBJECT_KEYS * (SCAN_DEPTH + 1));
  }
  const kinds = scanKinds;
  scanKeyTop = 0;
  scanRepeats = false;
  scanTopLevelKeys = [];
  scanSchemaNext = false;
  let schema: string | undefined;
  const length = text.length;
  let depth = 0;
  let at = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (;;) {
    // A value begins at `at`, after any blanks.
    let c = text.charCodeAt(at);
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = text.charCodeAt(++at);
    if (c === 0x22) {
      const end = scanString(text, at);
      if (end < 0) return undefined;
      if (scanSchemaNext) schema = scannedEscape ? (JSON.parse(text.slice(at, end)) as string) : text.slice(at + 1, end - 1);
      at = end;
    } else if (c === 0x7b || c === 0x5b) {
      if (depth === SCAN_DEPTH) return undefined;
      depth++;
      const object = c === 0x7b;
      kinds[depth] = object ? 1 : 2;
      scanKeyBase[depth] = scanKeyTop;
      c = text.charCodeAt(++at);
      while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = text.charCodeAt(++at);
      if (c === (object ? 0x7d : 0x5d)) {
        depth--;
        at++;
      } else {
        if (object) {
          at = scanKey(text, at, depth);
          if (at < 0) return undefined;
        } else {
          scanSchemaNext = false;
        }
        continue;
      }
    } else {
      at = literalEnd(text, at, c);
      if (at < 0) return undefined;
    }
    scanSchemaNext = false;
    // After a value: a comma and the next item, the container's close, or the end of the text.
    for (;;) {
      c = text.charCodeAt(at);
      while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = text.charCodeAt(++at);
      if (depth === 0) return at === length ? { topLevelKeys: scanTopLevelKeys, schema, mayRepeatKeys: scanRepeats } : undefined;
      const object = kinds[depth] === 1;
      if (c === 0x2c) {
        at++;
        if (object) {
          c = text.charCodeAt(at);
          while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = text.charCodeAt(++at);
          at = scanKey(text, at, depth);
          if (at < 0) return undefined;
        }
        break;
      }
      if (c !== (object ? 0x7d : 0x5d)) return undefined;
      scanKeyTop = scanKeyBase[depth]!;
      depth--;
      at++;
    }
  }
}

/**
 * Reads a key and its `:` at `at` (a key of the object open at `depth`), noting it for the
 * repeat test and, at the top level, as a top-level key; returns where its value's blanks
 * begin, or -1 when the text is not strict JSON there.
 */
function scanKey(text: string, at: number, depth: number): number {
  if (text.charCodeAt(at) !== 0x22) return -1;
  const end = scanString(text, at);
  if (end < 0) return -1;
  if (depth === 1) {
    const key = scannedEscape ? (JSON.parse(text.slice(at, end)) as string) : text.slice(at + 1, end - 1);
    scanTopLevelKeys.push(key);
    scanSchemaNext = key === "$schema";
  } else {
    scanSchemaNext = false;
  }
  if (scanRepeats === false) {
    if (scannedEscape) {
      // `"a"` and `"\u0061"` are one key: escapes are left to the exact scan.
      scanRepeats = true;
    } else {
      const base = scanKeyBase[depth]!;
      if (scanKeyTop - base >= SCAN_OBJECT_KEYS) {
        scanRepeats = undefined;
      } else {
        const size = end - at;
        for (let other = base; other < scanKeyTop; other++) {
          const otherStart = scanKeyStart[other]!;
          if (scanKeyEnd[other]! - otherStart === size && sameText(text, otherStart, at, size)) {
            scanRepeats = true;
            break;
          }
        }
        scanKeyStart[scanKeyTop] = at;
        scanKeyEnd[scanKeyTop] = end;
        scanKeyTop++;
      }
    }
  }
  let c = text.charCodeAt(end);
  let colon = end;
  while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = text.charCodeAt(++colon);
  return c === 0x3a ? colon + 1 : -1;
}

/** Whether the `size` characters at `a` and at `b` are the same (the quotes of two keys aside). */
function sameText(text: string, a: number, b: number, size: number): boolean {
  for (let i = 1; i < size - 1; i++) if (text.charCodeAt(a + i) !== text.charCodeAt(b + i)) return false;
  return true;
}

/** End (exclusive) of the strict JSON string at `start`, or -1; sets `scannedEscape`. */
function scanString(text: string, start: number): number {
  scannedEscape = false;
  let at = start + 1;
  for (;;) {
    const c = text.charCodeAt(at);
    // Most characters of a string are letters, above the backslash (0x5c): one comparison each.
    if (c > 0x5c) {
      at++;
      continue;
    }
    if (c === 0x22) return at + 1;
    if (c === 0x5c) {
      scannedEscape = true;
      const escaped = text.charCodeAt(at + 1);
      if (escaped === 0x75) {
        for (let digit = at + 2; digit < at + 6; digit++) {
          const h = text.charCodeAt(digit);
          if (!((h >= 0x30 && h <= 0x39) || (h >= 0x41 && h <= 0x46) || (h >= 0x61 && h <= 0x66))) return -1;
        }
        at += 6;
      } else if (escaped === 0x22 || escaped === 0x5c || escaped === 0x2f || escaped === 0x62 || escaped === 0x66 || escaped === 0x6e || escaped === 0x72 || escaped === 0x74) {
        at += 2;
      } else {
        return -1;
      }
    } else if (c >= 0x20) {
      at++;
    } else {
      // A control character, or the end of the text (NaN).
      return -1;
    }
  }
}

/** End (exclusive) of the number, `true`, `false` or `null` at `start` (its first character `c`), or -1. */
function literalEnd(text: string, start: number, c: number): number {
  if (c === 0x74) return text.startsWith("true", start) ? start + 4 : -1;
  if (c === 0x66) return text.startsWith("false", start) ? start + 5 : -1;
  if (c === 0x6e) return text.startsWith("null", start) ? start + 4 : -1;
  let at = c === 0x2d ? start + 1 : start;
  const first = text.charCodeAt(at);
  if (first === 0x30) at++;
  else if (first >= 0x31 && first <= 0x39) at = digitsEnd(text, at + 1);
  else return -1;
  if (text.charCodeAt(at) === 0x2e) {
    const fraction = digitsEnd(text, at + 1);
    if (fraction === at + 1) return -1;
    at = fraction;
  }
  const e = text.charCodeAt(at);
  if (e === 0x65 || e === 0x45) {
    let exponent = at + 1;
    const sign = text.charCodeAt(exponent);
    if (sign === 0x2b || sign === 0x2d) exponent++;
    const digits = digitsEnd(text, exponent);
    if (digits === exponent) return -1;
    at = digits;
  }
  return at;
}

function digitsEnd(text: string, from: number): number {
  let at = from;
  let c = text.charCodeAt(at);
  while (c >= 0x30 && c <= 0x39) c = text.charCodeAt(++at);
  return at;
}

/**
 * The lenient decision, for text that is not strict JSON: jsonc-parser reads it with its
 * error recovery, so a definition with a syntax error still counts (and is reported).
 */
function looksLikeDefinitionLeniently(text: string): boolean {
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
