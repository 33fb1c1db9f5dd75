/**
 * Reading a request: its peer address and its JSON body, with every bad body a clear 4xx. A
 * route's body is read by the rule its row in @wfkit/api's contract gives (`routeObject`,
 * `routeJson`): which members it takes, and whether none at all reads as `{}`.
 */
import { Readable } from "node:stream";
import type { Context } from "hono";
import { firstBracketBeyond, MAX_JSON_DEPTH } from "@wfkit/core";
import type { ServiceContext } from "./api-app.js";
import { errors } from "./errors.js";
import { LIMITS } from "./policy.js";

/** A context whose route's row the app has put in `c.var` (`api-app.ts`). */
type RouteContext = ServiceContext;

/** The body of a route whose rule is an object: its members only (`any`: whatever the checker judges), `{}` for none when the rule allows it. */
export async function routeObject(c: RouteContext): Promise<Record<string, unknown>> {
  const rule = c.var.route.body;
  if (rule.read !== "object") throw new Error(`this route's body is ${rule.read}, not an object (see its row in @wfkit/api's route table)`);
  return readObject(c, rule.members === "any" ? null : rule.members, rule.optional === true);
}

/** The body of a route whose rule is any JSON value (the route judges it), `{}` for none when the rule allows it. */
export async function routeJson(c: RouteContext): Promise<unknown> {
  const rule = c.var.route.body;
  if (rule.read !== "json") throw new Error(`this route's body is ${rule.read}, not any JSON value (see its row in @wfkit/api's route table)`);
  return readJson(c, rule.optional ? {} : undefined);
}

/** The peer address the request came from ("" when called in-process, with no socket). */
export function clientIp(c: Context): string {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? "";
}

/**
 * The JSON body as an object. `fields` lists the members the route knows (others are a 400:
 * a misspelt member is a mistake worth hearing about); null accepts any members. An empty
 * body is `{}` when `emptyIsObject`.
 */
export async function readObject(c: Context, fields: readonly string[] | null, emptyIsObject = false): Promise<Record<string, unknown>> {
  const value = await readJson(c, emptyIsObject ? {} : undefined);
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw errors.badRequest(`the body must be a JSON object, not ${Array.isArray(value) ? "an array" : value === null ? "null" : `a ${typeof value}`}`, "");
  const object = value as Record<string, unknown>;
  if (fields) {
    const unknown = Object.keys(object).filter((key) => !fields.includes(key));
    if (unknown.length) throw errors.badRequest(`unknown member \`${unknown[0]}\`; this route takes ${fields.length ? fields.map((f) => `\`${f}\``).join(", ") : "no members"}`, `/${unknown[0]}`);
  }
  return object;
}

/**
 * The JSON body, whatever value it is (for routes whose checker judges the value itself); an
 * empty body is `whenEmpty`, or a 400 when that is undefined.
 */
export async function readJson(c: Context, whenEmpty?: unknown): Promise<unknown> {
  const text = await readText(c);
  if (!text.trim()) {
    if (whenEmpty !== undefined) return whenEmpty;
    throw errors.badRequest("the body is empty; send a JSON object");
  }
  // Refused before parsing, as `wfkit check` refuses such a file: what reads or echoes the
  // value (the checker's messages, the JSON answer) may walk it recursively.
  if (text.length > MAX_JSON_DEPTH) {
    const offset = firstBracketBeyond(text, MAX_JSON_DEPTH);
    if (offset >= 0) throw errors.tooDeeplyNested(offset);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw errors.malformedJson(error instanceof Error ? error.message : String(error));
  }
}

/**
 * The body as text, read as its bytes arrive and abandoned at the limit: a sender that
 * declares no length (chunked) or lies about it costs at most the limit, never the whole
 * upload. What is left unread is drained and dropped by the server, not kept.
 */
async function readText(c: Context): Promise<string> {
  const declared = Number(c.req.header("Content-Length") ?? "0");
  if (declared > LIMITS.bodyBytes) throw errors.bodyTooLarge(LIMITS.bodyBytes);
  // On a port, Node's own request: read with its events (a web stream over it costs more than
  // most routes' work). In-process (`app.request`), the web Request's stream.
  const incoming = (c.env as { incoming?: unknown } | undefined)?.incoming;
  let bytes: Uint8Array | undefined;
  try {
    bytes = incoming instanceof Readable && !incoming.readableDidRead ? await readIncoming(incoming, LIMITS.bodyBytes) : await readBounded(c.req.raw.body, LIMITS.bodyBytes);
  } catch {
    // The sender went away (or the connection broke) mid-body: its mistake or its network's,
    // not the service's, so a 400 (which it will not read) and nothing logged as internal.
    throw errors.badRequest("the body ended before it was complete: the connection closed while it was being sent; send the whole body again");
  }
  if (bytes === undefined) throw errors.bodyTooLarge(LIMITS.bodyBytes);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw errors.malformedJson("it is not UTF-8 text");
  }
}

/**
 * At most `limit` bytes of a request on a port, or undefined once it would exceed them: then
 * nothing more is kept, and @hono/node-server drains or closes what the sender still sends
 * once the answer is out.
 */
export function readIncoming(incoming: Readable, limit: number): Promise<Uint8Array | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      incoming.off("data", onData);
      incoming.off("end", onEnd);
      incoming.off("error", onError);
      incoming.off("close", onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) {
        done();
        incoming.pause();
        chunks.length = 0;
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      done();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      done();
      reject(error);
    };
    const onClose = () => {
      done();
      reject(new Error("the client closed the connection before its body ended"));
    };
    incoming.on("data", onData);
    incoming.on("end", onEnd);
    incoming.on("error", onError);
    incoming.on("close", onClose);
  });
}

/** At most `limit` bytes of `body`, or undefined (the stream cancelled) once it would exceed them. */
export async function readBounded(body: ReadableStream<Uint8Array> | null, limit: number): Promise<Uint8Array | undefined> {
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0];
  const whole = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    whole.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return whole;
}
