/**
 * What the server accepts from the wire. vscode-languageserver types a message's params but
 * does not check them: a client (or a script) may send `null`, a number for a uri, or a
 * change without text. Each handler reads its params through these checks, so a malformed
 * message gets an InvalidParams error reply (or, for a notification, is logged and ignored)
 * instead of failing deep inside a feature, or in the checker thread.
 */
import * as lsp from "vscode-languageserver/node";
import type { TextChange } from "../service/types.js";

/** A malformed message: the handler's caller turns it into an InvalidParams reply. */
export function invalidParams(message: string): lsp.ResponseError<void> {
  return new lsp.ResponseError(lsp.ErrorCodes.InvalidParams, message);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** LSP's `uinteger`: a line or a character offset. */
function isUinteger(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 0x7fffffff;
}

function field(params: unknown, key: string, what: string): unknown {
  if (!isRecord(params)) throw invalidParams(`expected the params to be an object with ${what}, got ${describe(params)}`);
  return params[key];
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** `params.textDocument.uri`. */
export function documentUri(params: unknown): string {
  const document = field(params, "textDocument", "`textDocument`");
  const uri = isRecord(document) ? document.uri : undefined;
  if (typeof uri !== "string") throw invalidParams(`expected \`textDocument.uri\` to be a string, got ${isRecord(document) ? describe(uri) : `\`textDocument\` as ${describe(document)}`}`);
  return uri;
}

/** A string field of the params (`uri` of wfkit's requests, `text` of decompile, `newName` of rename). */
export function stringField(params: unknown, key: string): string {
  const value = field(params, key, `\`${key}\``);
  if (typeof value !== "string") throw invalidParams(`expected \`${key}\` to be a string, got ${describe(value)}`);
  return value;
}

export function position(value: unknown, name = "position"): lsp.Position {
  if (!isRecord(value) || !isUinteger(value.line) || !isUinteger(value.character)) {
    throw invalidParams(`expected \`${name}\` to be {line, character} with non-negative integers, got ${isRecord(value) ? JSON.stringify(value).slice(0, 80) : describe(value)}`);
  }
  return { line: value.line, character: value.character };
}

export function range(value: unknown, name = "range"): lsp.Range {
  if (!isRecord(value)) throw invalidParams(`expected \`${name}\` to be {start, end}, got ${describe(value)}`);
  return { start: position(value.start, `${name}.start`), end: position(value.end, `${name}.end`) };
}

/** `params.position`. */
export function positionField(params: unknown): lsp.Position {
  return position(field(params, "position", "`position`"));
}

/** `params.range`. */
export function rangeField(params: unknown): lsp.Range {
  return range(field(params, "range", "`range`"));
}

/**
 * `contentChanges` of `didChange`: an array of `{text}` (the whole text) or `{range, text}`.
 * A range past the end of the text is clamped to it, as the LSP says; anything else is refused.
 */
export function contentChanges(params: unknown): TextChange[] {
  const changes = field(params, "contentChanges", "`contentChanges`");
  if (!Array.isArray(changes)) throw invalidParams(`expected \`contentChanges\` to be an array, got ${describe(changes)}`);
  return changes.map((change, index) => {
    if (!isRecord(change) || typeof change.text !== "string") throw invalidParams(`expected \`contentChanges[${index}]\` to be {text} or {range, text} with a string text`);
    return change.range === undefined ? { text: change.text } : { range: range(change.range, `contentChanges[${index}].range`), text: change.text };
  });
}

/** `params.textDocument.version` of `didChange`. */
export function documentVersion(params: unknown): number {
  const document = field(params, "textDocument", "`textDocument`");
  const version = isRecord(document) ? document.version : undefined;
  if (typeof version !== "number" || !Number.isInteger(version)) throw invalidParams(`expected \`textDocument.version\` to be an integer, got ${describe(version)}`);
  return version;
}

/** `params.textDocument` of `didOpen`. */
export function openedDocument(params: unknown): { uri: string; languageId: string; version: number; text: string } {
  const uri = documentUri(params);
  const document = (params as { textDocument: Record<string, unknown> }).textDocument;
  const { languageId, version, text } = document;
  if (typeof languageId !== "string" || typeof text !== "string" || typeof version !== "number" || !Number.isInteger(version)) {
    throw invalidParams("expected `textDocument` to have a string `languageId`, an integer `version` and a string `text`");
  }
  return { uri, languageId, version, text };
}
