/**
 * `.json` sources. Strict JSON, the usual case, is read by `JSON.parse` and placed through a
 * tree read lazily from the text, only where a fault needs a position. Other text is parsed
 * with jsonc-parser's tree, so that every fault can be placed on the text and one syntax
 * error does not hide the others.
 *
 * The service takes strict JSON, so comments and trailing commas are reported as errors;
 * because the value they leave is still unambiguous, the document is checked anyway
 * (`complete`), which lets a user see every problem at once.
 */
import { parseTree, printParseErrorCode, type Node as JsonNode, type ParseError } from "jsonc-parser";
import { DSL_CODES, firstBracketBeyond } from "@wfkit/core";
import { sourceFault, type SourceFault } from "./diagnostics.js";
import { LineIndex, type Span } from "./positions.js";
import { arrayIndexOf, LazySourceMap, type PointerPart, type PointerResolution } from "./source-map.js";
import { lastKeyed, MAX_JSON_DEPTH, setOwnField, tooDeeplyNestedMessage } from "./json-value.js";

export interface JsonSource {
  /** The parsed value; undefined when the text holds no value at all. */
  value: unknown;
  /**
   * True when `value` is exactly what the text says: no syntax errors, or only comments and
   * trailing commas, which a lenient reader would drop without changing any value.
   */
  complete: boolean;
  /** `json-syntax` errors and `duplicate-field` warnings. */
  faults: SourceFault[];
  sourceMap: JsonSourceMap;
  /** jsonc-parser's tree, for tools that want more (undefined for an empty text). */
  tree: JsonNode | undefined;
}

export interface JsonParseOptions {
  /** What the caller's scan of this very text found (see `ScannedJson`). */
  scanned?: ScannedJson | undefined;
  /** The line index of this very text, when the caller keeps one (an editor keeps its line starts). */
  lines?: LineIndex | undefined;
  /**
   * The parse of the text before an edit, and where the edit was (`start`..`oldEnd` of the
   * old text became `start`..`newEnd` of this one): the text is then read again only inside
   * the smallest value that holds the edit, when that is still strict JSON (see
   * `reparseEdited`), and as a whole otherwise. The result is the same either way.
   */
  previous?: { source: JsonSource; edit: JsonEdit } | undefined;
  /**
   * With `previous`: a value this long or shorter that holds the edit is read whole rather than
   * searched for the smaller value inside it (256 characters; tests set 0, to follow every edit
   * down to its smallest value).
   */
  readWhole?: number | undefined;
}

/** Where a text changed: `start`..`oldEnd` of the old text became `start`..`newEnd` of the new one. */
export interface JsonEdit {
  start: number;
  oldEnd: number;
  newEnd: number;
}

/**
 * Parses a `.json` source. Never throws. `strictPath` false sends strict JSON through
 * jsonc-parser's tree too (tests compare the two paths; both place every fault alike).
 */
export function parseJsonSource(text: string, strictPath = true, options: JsonParseOptions = {}): JsonSource {
  const lines = options.lines ?? new LineIndex(text);
  // jsonc-parser does not accept a byte order mark; a space of the same length keeps offsets.
  const parsable = text.charCodeAt(0) === 0xfeff ? " " + text.slice(1) : text;
  if (strictPath) {
    const edited = options.previous ? reparseEdited(options.previous.source, options.previous.edit, text, parsable, lines, options.readWhole ?? SMALL_VALUE) : undefined;
    if (edited) return edited;
    const strict = parseStrictJson(text, parsable, lines, options.scanned);
    if (strict) return strict;
  }
  // jsonc-parser's parser recurses once per nesting level: refuse, with a positioned fault,
  // a text nested deeper than it can read rather than overflow the stack.
  const tooDeep = firstBracketBeyond(parsable, MAX_JSON_DEPTH);
  if (tooDeep >= 0) return tooDeeplyNested(text, lines, tooDeep);
  const errors: ParseError[] = [];
  let tree: JsonNode | undefined;
  try {
    tree = parseTree(parsable, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  } catch (error) {
    // Only a stack already nearly full when called can get here (the depth is checked above).
    if (error instanceof RangeError) return tooDeeplyNested(text, lines, Math.max(0, firstBracketBeyond(parsable, 0)));
    throw error;
  }
  const faults: SourceFault[] = [];
  let complete = tree !== undefined;
  const seenOffsets = new Set<number>();
  for (const reported of errors) {
    // jsonc-parser places the error of a comment left open at the end one character past the
    // end of the text: keep every span inside the text.
    const offset = Math.min(reported.offset, parsable.length);
    const error = { ...reported, offset, length: Math.min(reported.length, parsable.length - offset) };
    // jsonc-parser may report two errors for one mistake at one place (`,}`): keep the first.
    if (seenOffsets.has(error.offset)) continue;
    seenOffsets.add(error.offset);
    const described = describeParseError(parsable, error);
    if (!described.lenient) complete = false;
    faults.push(sourceFault(lines, DSL_CODES.jsonSyntax, described.message, described.span));
  }
  const value = tree ? valueOfNode(tree, parsable, faults, lines) : undefined;
  return { value, complete, faults, sourceMap: new JsonSourceMap(text, tree, lines), tree };
}

/**
 * Strict JSON, read by `JSON.parse` (the fastest reader there is, and a fraction of the
 * memory of jsonc-parser's tree, which costs about 15 times the text) and placed through a
 * tree built lazily from the text (`LazyJsonNode`); undefined when the text is not strict
 * JSON. The faults are those the full tree gives: too deep nesting and repeated keys, each
 * looked for in the text only when the parsed value shows it may be there.
 */
function parseStrictJson(text: string, parsable: string, lines: LineIndex, scanned: ScannedJson | undefined): JsonSource | undefined {
  let value: unknown;
  try {
    value = JSON.parse(parsable);
  } catch {
    return undefined;
  }
  const faults: SourceFault[] = [];
  if (scanned?.mayRepeatKeys !== undefined) {
    // The caller's scan has said how deep the text nests and whether a key may repeat.
    if (scanned.mayRepeatKeys) reportDuplicateKeys(parsable, lines, faults);
  } else {
    const shape = shapeOf(value);
    if (shape.tooDeep) return tooDeeplyNested(text, lines, firstBracketBeyond(parsable, MAX_JSON_DEPTH));
    if (mayRepeatKeys(parsable, shape)) reportDuplicateKeys(parsable, lines, faults);
  }
  // JSON.parse took the text, so all that may follow the value is JSON's whitespace.
  const tree = new LazyJsonNode(parsable, skipSpace(parsable, 0), undefined, parsable.trimEnd().length);
  return { value, complete: true, faults, sourceMap: new JsonSourceMap(text, tree, lines), tree };
}

/**
 * A strict JSON source after an edit, read again only inside the smallest value that holds
 * the edit (what an editor's keystroke usually touches: a string, one node of a large graph),
 * when that value alone is still strict JSON; undefined otherwise, and the caller reads the
 * whole text. The result is what `parseStrictJson` gives for the whole text:
 *
 * - the text outside the value is unchanged, and the value is one JSON value, so the whole is
 *   still strict JSON (a value is self-contained: its first and last tokens end where it does);
 * - the value is the last one's with that one value replaced, copying only the containers on
 *   the way to it (copy-on-write: every other object is the last version's own, which lets
 *   core's CheckSession re-judge only the node that changed);
 * - the tree is the last one's, moved past the edit, with nothing read anew but the value;
 * - the repeated keys are the last version's outside the value, moved, and the value's own
 *   (an object that repeats a key is read whole: JSON.parse keeps a repeated key's last value);
 * - nesting past MAX_JSON_DEPTH, or any doubt, gives undefined.
 */
function reparseEdited(previous: JsonSource, edit: JsonEdit, text: string, parsable: string, lines: LineIndex, readWhole: number): JsonSource | undefined {
  const root = previous.tree;
  if (!(root instanceof LazyJsonNode) || !previous.complete || previous.faults.some((fault) => fault.code !== DSL_CODES.duplicateField)) return undefined;
  const { start, oldEnd, newEnd } = edit;
  const delta = newEnd - oldEnd;
  if (start < 0 || oldEnd < start || newEnd < start || root.text.length + delta !== parsable.length) return undefined;

  // The value nodes from the root down to the smallest value holding the edit, and the key or
  // index that leads from each to the next.
  const path: LazyJsonNode[] = [root];
  const steps: (string | number)[] = [];
  // Down while the value is large (reading a small one whole costs less than finding its
  // children), and at most DESCENT levels (each level reads its value's children once: a text
  // nested thousands of levels deep must not be read once per level).
  for (let node = root; path.length === 1 || (node.length > readWhole && path.length <= DESCENT); ) {
    const children = node.type === "object" || node.type === "array" ? node.children! : [];
    const index = lastStartingBy(children, start);
    const child = children[index];
    if (!child || child.offset + child.length < oldEnd) break;
    if (node.type === "array") {
      steps.push(index);
      node = child;
    } else {
      const [key, value] = child.children!;
      // The edit must lie inside the property's value, and the object must not repeat a key.
      if (!key || !value || value.offset > start || repeatsKeyAround(previous.faults, node, value)) break;
      steps.push(key.value as string);
      node = value;
    }
    path.push(node);
  }
  const edited = path[path.length - 1]!;
  if (edited === root) return undefined;

  const from = edited.offset;
  const to = edited.offset + edited.length + delta;
  let value: unknown;
  try {
    value = JSON.parse(parsable.slice(from, to));
  } catch {
    return undefined;
  }
  const shape = shapeOf(value, path.length - 1);
  if (shape.tooDeep) return undefined;

  // The faults (repeated keys only): the last version's before the value, the value's own,
  // then the last version's after it, moved; in text order, as a whole read gives them.
  const move = (offset: number) => (offset < start ? offset : offset + delta);
  const oldTo = edited.offset + edited.length;
  const faults: SourceFault[] = [];
  const after: SourceFault[] = [];
  for (const fault of previous.faults) {
    if (fault.span.end <= from) faults.push(fault.related?.some((entry) => entry.span.start >= oldTo) ? movedFault(fault, move, lines) : fault);
    else if (fault.span.start >= oldTo) after.push(movedFault(fault, move, lines));
  }
  if (value !== null && typeof value === "object" && mayRepeatKeys(parsable.slice(from, to), shape)) reportDuplicateKeys(parsable, lines, faults, from, to);
  faults.push(...after);

  // The value: the last one's, with the containers on the path copied.
  const containers: unknown[] = [previous.value];
  for (const step of steps.slice(0, -1)) containers.push((containers[containers.length - 1] as Record<string | number, unknown>)[step]);
  let replacement = value;
  for (let i = steps.length - 1; i >= 0; i--) {
    const container = containers[i];
    if (Array.isArray(container)) {
      const copy = container.slice();
      copy[steps[i] as number] = replacement;
      replacement = copy;
    } else {
      const copy = { ...(container as Record<string, unknown>) };
      setOwnField(copy, steps[i] as string, replacement);
      replacement = copy;
    }
  }

  let valueEndAt = to;
  while (valueEndAt > from && isJsonBlank(parsable.charCodeAt(valueEndAt - 1))) valueEndAt--;
  const tree = root.moved(parsable, move, edited, skipSpace(parsable, from), valueEndAt);
  return { value: replacement, complete: true, faults, sourceMap: new JsonSourceMap(text, tree, lines), tree };
}

/** A value this long or shorter is read whole when an edit is inside it. */
const SMALL_VALUE = 256;
/** The deepest an edit's value is looked for (levels below the root). */
const DESCENT = 32;

/** Index of the last of `nodes` (in text order) that starts at or before `offset`; -1 when none does. */
function lastStartingBy(nodes: readonly LazyJsonNode[], offset: number): number {
  let low = 0;
  let high = nodes.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (nodes[middle]!.offset <= offset) low = middle + 1;
    else high = middle;
  }
  return low - 1;
}

/** Whether a repeated key of the last version lies in `object` but outside `value` (then JSON.parse's choice of value must be made again). */
function repeatsKeyAround(faults: readonly SourceFault[], object: LazyJsonNode, value: LazyJsonNode): boolean {
  const objectEnd = object.offset + object.length;
  const valueEnd = value.offset + value.length;
  return faults.some((fault) => fault.span.start >= object.offset && fault.span.end <= objectEnd && (fault.span.end <= value.offset || fault.span.start >= valueEnd));
}

function movedFault(fault: SourceFault, move: (offset: number) => number, lines: LineIndex): SourceFault {
  const span = { start: move(fault.span.start), end: move(fault.span.end) };
  const moved: SourceFault = { ...fault, range: lines.rangeOf(span), span };
  if (fault.related) moved.related = fault.related.map((entry) => {
    const relatedSpan = { start: move(entry.span.start), end: move(entry.span.end) };
    return { ...entry, span: relatedSpan, range: lines.rangeOf(relatedSpan) };
  });
  return moved;
}

function isJsonBlank(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/**
 * What a caller that scanned the text already knows of it (the CLI's directory walk scans each
 * `.json` file to decide whether it is a definition): the text is strict JSON (a leading byte
 * order mark aside) nested at most `MAX_JSON_DEPTH` levels, and whether any object may repeat
 * a key (undefined: not known). `parseJsonSource` then makes no walk of the parsed value.
 */
export interface ScannedJson {
  mayRepeatKeys: boolean | undefined;
}

interface ValueShape {
  /** A container nested deeper than MAX_JSON_DEPTH. */
  tooDeep: boolean;
  /** Properties of all the objects. */
  keys: number;
  /** `:` characters in all the strings, keys included. */
  colonsInStrings: number;
}

/**
 * One walk over a parsed value. It runs on every clean `.json` file, once and cold, so it is
 * written for that: a recursive function reading objects with `for…in` is compiled and
 * optimised far sooner than a loop over an explicit stack calling `Object.keys` per object,
 * and a string is searched for `:` only when `includes` says it has one.
 */
function shapeOf(root: unknown, containersAbove = 0): ValueShape {
  const shape: ValueShape = { tooDeep: false, keys: 0, colonsInStrings: 0 };
  if (root !== null && typeof root === "object") {
    // `for…in` also lists what a polluted `Object.prototype` carries: then only own fields count.
    ownFieldsOnly = prototypeHasEnumerables();
    addShape(root, containersAbove + 1, shape);
  } else if (typeof root === "string") {
    shape.colonsInStrings = colonsIn(root);
  }
  return shape;
}

let ownFieldsOnly = false;

function prototypeHasEnumerables(): boolean {
  for (const _ in Object.prototype) return true;
  return false;
}

/**
 * Adds a container's keys and colons (and those of everything in it) to `shape`; sets
 * `tooDeep` and stops beyond the limit, which also keeps the recursion within the stack.
 */
function addShape(item: object, depth: number, shape: ValueShape): void {
  if (depth > MAX_JSON_DEPTH) {
    shape.tooDeep = true;
    return;
  }
  if (Array.isArray(item)) {
    for (let index = 0; index < item.length; index++) {
      const element: unknown = item[index];
      if (typeof element === "string") {
        if (element.includes(":")) shape.colonsInStrings += colonsIn(element);
      } else if (element !== null && typeof element === "object") {
        addShape(element, depth + 1, shape);
        if (shape.tooDeep) return;
      }
    }
    return;
  }
  const record = item as Record<string, unknown>;
  let keys = 0;
  for (const name in record) {
    if (ownFieldsOnly && !Object.hasOwn(record, name)) continue;
    keys++;
    if (name.includes(":")) shape.colonsInStrings += colonsIn(name);
    const value = record[name];
    if (typeof value === "string") {
      if (value.includes(":")) shape.colonsInStrings += colonsIn(value);
    } else if (value !== null && typeof value === "object") {
      addShape(value, depth + 1, shape);
      if (shape.tooDeep) return;
    }
  }
  shape.keys += keys;
}

function colonsIn(text: string): number {
  let count = 0;
  for (let at = text.indexOf(":"); at >= 0; at = text.indexOf(":", at + 1)) count++;
  return count;
}

/**
 * Whether strict JSON text may repeat a key in one object, which `JSON.parse` silently drops.
 * Every `:` of the text either follows a key or sits in a string; so when no string escapes
 * a character as `\u` (which could write a `:` the text does not show), the text's colons
 * number exactly the value's keys plus the colons of its strings, and any dropped key (with
 * its value's strings and keys) makes the text's count larger. False means there is none;
 * true sends the text to the scan that finds and places them.
 */
function mayRepeatKeys(text: string, shape: ValueShape): boolean {
  return text.includes("\\u") || colonsIn(text) !== shape.keys + shape.colonsInStrings;
}

/**
 * A node of the tree of strict JSON text, read from the text when first asked for: its extent
 * when made, its children on first use (so placing faults indexes only the containers that
 * hold them, each once). The shape is jsonc-parser's `Node`, so the source map and the
 * language server read it as they read that tree.
 */
class LazyJsonNode implements JsonNode {
  readonly type: JsonNode["type"];
  readonly length: number;
  private childNodes: LazyJsonNode[] | undefined;

  constructor(
    /** The text this node is read from (the source's, a byte order mark made a space). */
    readonly text: string,
    readonly offset: number,
    readonly parent: LazyJsonNode | undefined,
    end?: number,
    type?: JsonNode["type"],
  ) {
    this.type = type ?? typeAt(text, offset);
    this.length = (end ?? valueEnd(text, offset)) - offset;
  }

  /**
   * This node in `text`, the text after an edit outside it or around it: its offsets moved by
   * `move`, and what was read of its children moved alike (nothing is read anew). `edited`,
   * the value the edit was inside, becomes the value at `editedStart`..`editedEnd` of `text`
   * (read lazily), and the property it is the value of ends where it ends.
   */
  moved(text: string, move: (offset: number) => number, edited: LazyJsonNode, editedStart: number, editedEnd: number): LazyJsonNode {
    const editedOldEnd = edited.offset + edited.length;
    const copy = (node: LazyJsonNode, parent: LazyJsonNode | undefined) => {
      if (node === edited) return new LazyJsonNode(text, editedStart, parent, editedEnd);
      const end = node.offset + node.length;
      return new LazyJsonNode(text, move(node.offset), parent, end === editedOldEnd ? editedEnd : move(end), node.type);
    };
    const root = copy(this, undefined);
    // Iterative: a deeply nested text must not overflow the stack.
    const stack: [LazyJsonNode, LazyJsonNode][] = this.childNodes ? [[this, root]] : [];
    while (stack.length) {
      const [from, to] = stack.pop()!;
      to.childNodes = from.childNodes!.map((child) => {
        const moved = copy(child, to);
        if (child !== edited && child.childNodes) stack.push([child, moved]);
        return moved;
      });
    }
    return root;
  }

  get value(): unknown {
    if (this.type === "string" || this.type === "number" || this.type === "boolean") return JSON.parse(this.text.slice(this.offset, this.offset + this.length));
    return this.type === "null" ? null : undefined;
  }

  get children(): LazyJsonNode[] | undefined {
    if (this.type !== "object" && this.type !== "array" && this.type !== "property") return undefined;
    this.childNodes ??= this.readChildren();
    return this.childNodes;
  }

  private readChildren(): LazyJsonNode[] {
    const { text } = this;
    const children: LazyJsonNode[] = [];
    if (this.type === "property") {
      const key = new LazyJsonNode(text, this.offset, this);
      const valueStart = skipSpace(text, skipSpace(text, key.offset + key.length) + 1);
      // The value ends where the property does: no second scan of it.
      children.push(key, new LazyJsonNode(text, valueStart, this, this.offset + this.length));
      return children;
    }
    const close = this.offset + this.length - 1;
    let at = skipSpace(text, this.offset + 1);
    while (at < close) {
      if (this.type === "array") {
        const item = new LazyJsonNode(text, at, this);
        children.push(item);
        at = item.offset + item.length;
      } else {
        const keyEnd = valueEnd(text, at);
        const valueStart = skipSpace(text, skipSpace(text, keyEnd) + 1);
        const end = valueEnd(text, valueStart);
        children.push(new LazyJsonNode(text, at, this, end, "property"));
        at = end;
      }
      at = skipSpace(text, at);
      if (text.charCodeAt(at) === 0x2c) at = skipSpace(text, at + 1);
    }
    return children;
  }
}

function typeAt(text: string, offset: number): JsonNode["type"] {
  switch (text.charCodeAt(offset)) {
    case 0x7b:
      return "object";
    case 0x5b:
      return "array";
    case 0x22:
      return "string";
    case 0x74:
    case 0x66:
      return "boolean";
    case 0x6e:
      return "null";
    default:
      return "number";
  }
}

function skipSpace(text: string, from: number): number {
  let at = from;
  for (;;) {
    const c = text.charCodeAt(at);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return at;
    at++;
  }
}

/** End (exclusive) of the strict JSON value starting at `start`. */
function valueEnd(text: string, start: number): number {
  const first = text.charCodeAt(start);
  if (first === 0x22) return stringEnd(text, start);
  if (first !== 0x7b && first !== 0x5b) {
    let at = start + 1;
    for (;;) {
      const c = text.charCodeAt(at);
      if (Number.isNaN(c) || c === 0x2c || c === 0x5d || c === 0x7d || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) return at;
      at++;
    }
  }
  let depth = 0;
  for (let at = start; at < text.length; at++) {
    const c = text.charCodeAt(at);
    if (c === 0x22) at = stringEnd(text, at) - 1;
    else if (c === 0x7b || c === 0x5b) depth++;
    else if ((c === 0x7d || c === 0x5d) && --depth === 0) return at + 1;
  }
  return text.length;
}

function stringEnd(text: string, start: number): number {
  for (let at = start + 1; at < text.length; at++) {
    const c = text.charCodeAt(at);
    if (c === 0x5c) at++;
    else if (c === 0x22) return at + 1;
  }
  return text.length;
}

/**
 * `duplicate-field` warnings for strict JSON text (or the value at `from`..`to` of it), in one
 * pass: the names of each open object are kept until it closes.
 */
function reportDuplicateKeys(text: string, lines: LineIndex, faults: SourceFault[], from = 0, to = text.length): void {
  // For each open container: the names seen (objects) and where each first appeared, or null (arrays).
  const open: (Map<string, number> | null)[] = [];
  let expectKey = false;
  for (let at = from; at < to; at++) {
    const c = text.charCodeAt(at);
    if (c === 0x22) {
      const end = stringEnd(text, at);
      const names = open[open.length - 1];
      if (expectKey && names) {
        const raw = text.slice(at, end);
        const name = raw.includes("\\") ? (JSON.parse(raw) as string) : raw.slice(1, -1);
        const first = names.get(name);
        if (first === undefined) names.set(name, at);
        else duplicateKey(name, { start: at, end }, { start: first, end: stringEnd(text, first) }, lines, faults);
      }
      expectKey = false;
      at = end - 1;
    } else if (c === 0x7b) {
      open.push(new Map());
      expectKey = true;
    } else if (c === 0x5b) {
      open.push(null);
      expectKey = false;
    } else if (c === 0x7d || c === 0x5d) {
      open.pop();
      expectKey = false;
    } else if (c === 0x2c) {
      expectKey = open.length > 0 && open[open.length - 1] !== null;
    }
  }
}

function tooDeeplyNested(text: string, lines: LineIndex, offset: number): JsonSource {
  const message = tooDeeplyNestedMessage("a JSON file");
  const faults = [sourceFault(lines, DSL_CODES.jsonSyntax, message, { start: offset, end: Math.min(text.length, offset + 1) })];
  return { value: undefined, complete: false, faults, sourceMap: new JsonSourceMap(text, undefined, lines), tree: undefined };
}

interface DescribedError {
  message: string;
  span: Span;
  /** Comments and trailing commas: errors for the service, but the value is still clear. */
  lenient: boolean;
}

/** By jsonc-parser's name for it: the message of an error that ends with what was found there. */
const EXPECTED: Partial<Record<ReturnType<typeof printParseErrorCode>, string>> = {
  PropertyNameExpected: "expected a property name in double quotes",
  ValueExpected: "expected a JSON value",
  ColonExpected: "expected `:` after the property name",
  CommaExpected: "expected `,` between values",
  CloseBraceExpected: "expected `}` to close the object",
  CloseBracketExpected: "expected `]` to close the array",
  EndOfFileExpected: "expected the end of the file after the JSON value",
};

/** The message of an error that says what is wrong in itself. */
const WHOLE: Partial<Record<ReturnType<typeof printParseErrorCode>, string>> = {
  InvalidNumberFormat: "this is not a JSON number",
  UnexpectedEndOfComment: "this comment is not closed (and JSON does not allow comments)",
  UnexpectedEndOfString: "this string is not closed: add `\"`",
  UnexpectedEndOfNumber: "this number is not complete",
  InvalidUnicode: "invalid `\\u` escape: expected four hexadecimal digits",
  InvalidEscapeCharacter: "invalid escape: JSON strings allow only \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX",
  InvalidCharacter: "control characters must be escaped inside JSON strings",
};

function describeParseError(text: string, error: ParseError): DescribedError {
  const span = { start: error.offset, end: error.offset + error.length };
  // By name: the codes are a const enum, which isolated modules cannot read.
  const code = printParseErrorCode(error.error);
  if (code === "InvalidCommentToken")
    return { message: "comments are not allowed in JSON (the service takes strict JSON); remove the comment, or write the workflow in `.wf`, which has comments", span, lenient: true };
  const trailingComma = code === "PropertyNameExpected" || code === "ValueExpected" ? trailingCommaBefore(text, error.offset) : undefined;
  if (trailingComma !== undefined)
    return { message: "a trailing comma is not allowed in JSON (the service takes strict JSON); remove this comma", span: { start: trailingComma, end: trailingComma + 1 }, lenient: true };
  const found = error.length > 0 ? `, found \`${clip(text.slice(span.start, span.end))}\`` : atEnd(text, error.offset) ? ", found the end of the file" : "";
  return { message: WHOLE[code] ?? `${EXPECTED[code] ?? "unexpected character"}${found}`, span, lenient: false };
}

/** Offset of a comma directly before a closing bracket at `offset` (whitespace aside). */
function trailingCommaBefore(text: string, offset: number): number | undefined {
  const closing = text[offset];
  if (closing !== "}" && closing !== "]") return undefined;
  let i = offset - 1;
  while (i >= 0 && /\s/.test(text[i]!)) i--;
  return text[i] === "," ? i : undefined;
}

function atEnd(text: string, offset: number): boolean {
  return text.slice(offset).trim() === "";
}

function clip(text: string): string {
  return text.length > 20 ? text.slice(0, 20) + "…" : text;
}

/**
 * The value of a tree node. Not jsonc-parser's getNodeValue: that assigns keys with `obj[key]`,
 * which turns a `"__proto__"` key into a prototype change and loses it, and it reads numbers
 * through its scanner; here numbers are read from their text so that `-0` stays `-0`.
 */
function valueOfNode(root: JsonNode, text: string, faults: SourceFault[], lines: LineIndex): unknown {
  // Iterative: a deeply nested document must not overflow the stack.
  const build = (node: JsonNode): unknown => {
    if (node.type === "number") return Number(text.slice(node.offset, node.offset + node.length));
    if (node.type === "array") return [];
    if (node.type === "object") return {};
    return node.type === "string" || node.type === "boolean" ? node.value : null;
  };
  const rootValue = build(root);
  const stack: { node: JsonNode; value: unknown }[] = [{ node: root, value: rootValue }];
  while (stack.length) {
    const { node, value } = stack.pop()!;
    if (node.type === "array") {
      const array = value as unknown[];
      for (const child of node.children ?? []) {
        const childValue = build(child);
        array.push(childValue);
        if (child.type === "array" || child.type === "object") stack.push({ node: child, value: childValue });
      }
    } else if (node.type === "object") {
      const object = value as Record<string, unknown>;
      const seen = new Map<string, JsonNode>();
      for (const property of node.children ?? []) {
        const [keyNode, valueNode] = property.children ?? [];
        if (!keyNode || typeof keyNode.value !== "string") continue;
        const key = keyNode.value;
        const first = seen.get(key);
        if (first) {
          duplicateKey(key, nodeSpan(keyNode), nodeSpan(first), lines, faults);
        } else {
          seen.set(key, keyNode);
        }
        if (!valueNode) continue;
        const childValue = build(valueNode);
        setOwnField(object, key, childValue);
        if (valueNode.type === "array" || valueNode.type === "object") stack.push({ node: valueNode, value: childValue });
      }
    }
  }
  return rootValue;
}

function duplicateKey(key: string, at: Span, first: Span, lines: LineIndex, faults: SourceFault[]): void {
  faults.push(
    sourceFault(lines, DSL_CODES.duplicateField, `\`${key}\` appears twice in this object; JSON readers keep only the last one, so the first is ignored`, at, {
      related: [{ nodeId: null, pointer: "", message: `\`${key}\` first appears here`, span: first, range: lines.rangeOf(first) }],
    }),
  );
}

function nodeSpan(node: JsonNode): Span {
  return { start: node.offset, end: node.offset + node.length };
}

/** Pointers of a `.json` source resolved on jsonc-parser's tree. */
export class JsonSourceMap extends LazySourceMap {
  constructor(
    text: string,
    private readonly tree: JsonNode | undefined,
    lines?: LineIndex,
  ) {
    super(text, lines);
  }

  protected resolve(tokens: readonly string[], _part: PointerPart): PointerResolution {
    if (!this.tree) return { span: { start: 0, end: 0 }, depth: 0 };
    let node = this.tree;
    let keyNode: JsonNode | undefined;
    let depth = 0;
    for (const token of tokens) {
      const next = childOf(node, token);
      if (!next) break;
      node = next.value;
      keyNode = next.key;
      depth++;
    }
    if (depth === tokens.length) {
      return { span: this.focus(node, keyNode, false), keySpan: keyNode ? nodeSpan(keyNode) : undefined, depth };
    }
    return { span: this.focus(node, keyNode, true), depth };
  }

  /**
   * The part of a value a fault about it should underline: a node's id rather than the whole
   * node, a many-line object's key rather than all its lines. For a field or item the value
   * lacks (`missing`: the pointer goes further than the text), what lacks it: the key naming
   * the object if it has one, else its id, else its opening bracket.
   */
  private focus(node: JsonNode, keyNode: JsonNode | undefined, missing: boolean): Span {
    if (node.type !== "object" && node.type !== "array") return nodeSpan(node);
    if (missing && keyNode) return nodeSpan(keyNode);
    const id = node.type === "object" ? propertyValue(node, "id") : undefined;
    if (id?.type === "string") return nodeSpan(id);
    if (!missing && !this.text.slice(node.offset, node.offset + node.length).includes("\n")) return nodeSpan(node);
    if (keyNode) return nodeSpan(keyNode);
    return { start: node.offset, end: node.offset + 1 };
  }
}

function childOf(node: JsonNode, token: string): { value: JsonNode; key?: JsonNode } | undefined {
  if (node.type === "object") {
    const [key, value] = lastKeyed(node.children ?? [], token, propertyName)?.children ?? [];
    return key && value ? { value, key } : undefined;
  }
  if (node.type === "array") {
    const index = arrayIndexOf(token);
    const value = index === undefined ? undefined : node.children?.[index];
    return value ? { value } : undefined;
  }
  return undefined;
}

/** A property node's name, when it has a value (JSON.parse keeps the last property with a value). */
function propertyName(property: JsonNode): string | undefined {
  const [key, value] = property.children ?? [];
  return typeof key?.value === "string" && value ? key.value : undefined;
}

function propertyValue(object: JsonNode, name: string): JsonNode | undefined {
  return childOf(object, name)?.value;
}
