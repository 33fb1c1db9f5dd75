/**
 * Reading a catalogue file (`--catalogue`, the editor's `wfkit.catalogue`, or `catalogue` in
 * wfkit.config.json). A problem says where (line and column) and what kind of mistake; it
 * never quotes the file: a config can point the catalogue at any file, one holding a token
 * for example, and error output ends up in CI logs.
 */
import { defaultCatalogue, loadCatalogue, type Catalogue } from "@wfkit/core";
import { findNodeAtLocation, parseTree, printParseErrorCode, type ParseError } from "jsonc-parser";
import { readRegularFile } from "./read-file.js";
import { lineColumnAt, type TextPlace } from "./text-place.js";

/** Why a project file (config or catalogue) cannot be used; printed after the file's path. */
export interface FileProblem {
  /** Absolute path of the file. */
  path: string;
  place?: TextPlace;
  /** What is wrong, without the path (the caller shows it as the user wrote it). */
  message: string;
}

/** `shown:line:column: message`, one line. */
export function describeFileProblem(problem: FileProblem, shownPath: string): string {
  const place = problem.place ? `:${problem.place.line}:${problem.place.column}` : "";
  return `${shownPath}${place}: ${problem.message}`;
}

export type CatalogueLoad = { ok: true; catalogue: Catalogue } | { ok: false; problem: FileProblem };

/** The catalogue at `absolutePath`, or core's sample catalogue when none is named. */
export function loadCatalogueFile(absolutePath: string | undefined): CatalogueLoad {
  if (absolutePath === undefined) return { ok: true, catalogue: defaultCatalogue };
  const read = readRegularFile(absolutePath);
  if (!read.ok) return { ok: false, problem: { path: absolutePath, message: `cannot read the catalogue: ${read.reason}` } };
  return catalogueFromText(read.text, absolutePath);
}

export function catalogueFromText(text: string, absolutePath: string): CatalogueLoad {
  const fail = (message: string, offset?: number): CatalogueLoad => ({
    ok: false,
    problem: { path: absolutePath, message, ...(offset === undefined ? {} : { place: lineColumnAt(text, offset) }) },
  });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // JSON.parse's message quotes the text around the mistake: find the place another way.
    const syntax = firstSyntaxError(text);
    return fail(`the catalogue is not valid JSON${syntax ? ` (${printParseErrorCode(syntax.error)})` : ""}`, syntax?.offset);
  }
  const loaded = loadCatalogue(value);
  if (loaded.ok) return loaded;
  const [first, ...rest] = loaded.problems;
  const more = rest.length ? ` (and ${rest.length} more problem${rest.length === 1 ? "" : "s"})` : "";
  return fail(`not a valid catalogue: ${withoutPointer(first!.message, first!.pointer)}${more}`, offsetOfPointer(text, first!.pointer));
}

function firstSyntaxError(text: string): ParseError | undefined {
  const errors: ParseError[] = [];
  try {
    parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  } catch {
    // Nested too deeply for jsonc-parser's recursion: the kind is known, the place is not.
    return undefined;
  }
  return errors[0];
}

/** Core's schema messages start with the pointer, which spells out keys of the file: the place replaces it. */
function withoutPointer(message: string, pointer: string): string {
  const quoted = `\`${pointer}\``;
  return message.startsWith(quoted) ? `this value${message.slice(quoted.length)}` : message;
}

function offsetOfPointer(text: string, pointer: string): number | undefined {
  try {
    const root = parseTree(text);
    if (!root) return undefined;
    const segments = pointer
      .split("/")
      .slice(1)
      .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"))
      .map((segment) => (/^(0|[1-9]\d*)$/.test(segment) ? Number(segment) : segment));
    return findNodeAtLocation(root, segments)?.offset ?? root.offset;
  } catch {
    return undefined;
  }
}
