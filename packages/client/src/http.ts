/**
 * The one transport both clients send through (`WorkflowsClient`, `SignalsClient`): where a
 * request goes, with which credential, for how long, how much of the answer is read, what a
 * redirect may do, and how a failure is named. The clients decide only what is theirs: which
 * routes may be sent again, which credential an endpoint takes, and what an answer means.
 *
 * - Redirects are never left to `fetch` (`redirect: "manual"`): a redirect to another origin
 *   is refused (the credential was given for one origin, and fetch would carry `X-Alert-Token`
 *   or a request body there); a redirect of anything but a GET is refused (a POST is never
 *   sent twice); a GET may follow up to `MAX_REDIRECTS` redirects within its origin.
 * - Every exchange has a timeout that covers the answer's body too, joined with the caller's
 *   AbortSignal; a call with retries ends within the larger of the timeout and the retry
 *   budget, and every retry is announced (`onRetry`).
 * - At most `maxAnswerBytes` of an answer are read, counted as they arrive; past that the
 *   stream is cancelled and the call fails without being retried. An answer nested deeper
 *   than `MAX_ANSWER_DEPTH` is refused before it is parsed (printing or walking it would
 *   overflow the stack).
 * - A successful answer is checked against its endpoint's shape (`answer-shapes.ts`).
 *
 * No `node:` imports: this runs in browsers and editor hosts too.
 */
import { firstBracketBeyond, MAX_JSON_DEPTH } from "@wfkit/core";
import { describeMismatch, type Guard } from "./answer-shapes.js";
import type { BadAnswerReason, NoAnswerReason } from "./errors.js";
import { withRetries, type RetryPolicy, type Timing } from "./retry.js";
import { causeOf, codeOf, redactSecrets } from "./transport.js";

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** Each request's default timeout: headers and body, per attempt. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** The default cap on what is read of one answer. */
export const DEFAULT_MAX_ANSWER_BYTES = 16 * 1024 * 1024;
/** Redirects a GET may follow within its origin. */
export const MAX_REDIRECTS = 5;
/**
 * Arrays and objects nested deeper than this are refused before parsing: core's limit for all
 * JSON wfkit reads (printing or walking deeper JSON overflows the stack; no answer of either
 * API comes near it).
 */
export const MAX_ANSWER_DEPTH = MAX_JSON_DEPTH;

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** How a request says who sends it: one header, carrying a secret, sent only to the configured origin. */
export interface AuthStrategy {
  /** The header's name, for messages (never its value). */
  readonly header: string;
  readonly secret: string;
}

/** The Workflows API's credential (and the Consumer Signals API's JWT): `Authorization: Bearer`. */
export function bearerAuth(credential: string): AuthStrategy {
  return { header: "Authorization", secret: credential };
}

/** The Consumer Signals API's alert token: `X-Alert-Token`. */
export function alertTokenAuth(token: string): AuthStrategy {
  return { header: "X-Alert-Token", secret: token };
}

function authHeaderValue(auth: AuthStrategy): string {
  return auth.header === "Authorization" ? `Bearer ${auth.secret}` : auth.secret;
}

/** Each client's names for the transport's failures. */
export interface Dialect {
  /** For messages: "the Workflows API". */
  api: string;
  noAnswer(message: string, request: string, reason: NoAnswerReason): Error;
  badAnswer(message: string, request: string, reason: BadAnswerReason): Error;
  aborted(): Error;
}

/** A retry about to happen, as announced to `onRetry`. */
export interface RetryNotice {
  /** `METHOD /path` of the call. */
  request: string;
  /** The attempt about to be made (2 for the first retry). */
  attempt: number;
  /** The wait before it. */
  delayMs: number;
  /** What the last attempt ended in. */
  error: unknown;
  /** That error's message, without a credential. */
  message: string;
}

export interface TransportOptions {
  baseUrl: string;
  fetch?: FetchLike | undefined;
  timeoutMs?: number | undefined;
  maxAnswerBytes?: number | undefined;
  headers?: Record<string, string> | undefined;
  debug?: ((line: string) => void) | undefined;
  onRetry?: ((notice: RetryNotice) => void) | undefined;
  /** Every secret the client holds; none appears in a message or debug line. */
  secrets: readonly (string | undefined)[];
  policy: RetryPolicy;
  timing: Timing;
  dialect: Dialect;
}

/** What a client's own options say about sending, which its transport takes as they are. */
export type SendingOptions = Pick<TransportOptions, "baseUrl" | "fetch" | "timeoutMs" | "maxAnswerBytes" | "headers" | "debug" | "onRetry">;

/** The sending options out of a client's options (which hold more: credentials, retry, timing). */
export function sendingOptionsOf({ baseUrl, fetch, timeoutMs, maxAnswerBytes, headers, debug, onRetry }: SendingOptions): SendingOptions {
  return { baseUrl, fetch, timeoutMs, maxAnswerBytes, headers, debug, onRetry };
}

export interface Exchange {
  method: "GET" | "POST" | "DELETE";
  /** Path and query, joined onto the base URL. */
  path: string;
  body?: unknown;
  headers?: Record<string, string> | undefined;
  auth?: AuthStrategy | undefined;
  /** `METHOD /path`, for messages. */
  label: string;
  signal?: AbortSignal | undefined;
  /** This exchange's timeout (default: the transport's). */
  timeoutMs?: number | undefined;
}

/** An answer's status and headers, its body not yet read; the exchange's timer still runs. */
export interface Opened {
  response: Response;
  /** Reads the body (within the cap and the timer) as text, and ends the exchange. */
  text(): Promise<string>;
  /** Stops the exchange's timer and leaves the body to the caller (a stream; the caller's signal still aborts it). */
  release(): void;
  /** Drops the body unread, and ends the exchange. */
  discard(): Promise<void>;
}

/** A successful answer, parsed and checked. */
export interface Answer<T> {
  body: T;
  status: number;
  headers: Headers;
}

export class HttpTransport {
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly maxAnswerBytes: number;
  private readonly origin: string;
  private readonly fetcher: FetchLike;

  constructor(private readonly options: TransportOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.origin = originOf(this.baseUrl);
    this.fetcher = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    // setTimeout fires at once past 2^31 - 1 ms: a longer timeout is that long.
    this.timeoutMs = Math.min(positive(options.timeoutMs, DEFAULT_TIMEOUT_MS), 2_147_483_647);
    this.maxAnswerBytes = positive(options.maxAnswerBytes, DEFAULT_MAX_ANSWER_BYTES);
  }

  /**
   * Runs `attempt` until it succeeds or fails in a way `retryable` calls final. Each attempt
   * gets the timeout, but never past the call's end: the larger of the timeout and the retry
   * budget after the first attempt began. Every retry is announced before its wait.
   */
  retrying<T>(label: string, signal: AbortSignal | undefined, retryable: (error: unknown) => boolean, attempt: (timeoutMs: number) => Promise<T>): Promise<T> {
    const { policy, timing } = this.options;
    const start = timing.now();
    const end = start + Math.max(policy.budgetMs, this.timeoutMs);
    let first = true;
    return withRetries(
      () => {
        // The first attempt always has the whole timeout, however long the set-up took.
        const timeoutMs = first ? this.timeoutMs : Math.max(1, Math.min(this.timeoutMs, end - timing.now()));
        first = false;
        return attempt(timeoutMs);
      },
      retryable,
      policy,
      timing,
      signal,
      (error, delayMs, tries) => {
        const message = this.redact(error instanceof Error ? error.message : String(error));
        this.debug(`retry ${tries} of ${label} in ${delayMs} ms after ${message}`);
        this.options.onRetry?.({ request: label, attempt: tries + 1, delayMs, error, message });
      },
    );
  }

  /** One exchange, up to its answer's headers: redirects decided, the timer running. */
  async open(x: Exchange): Promise<Opened> {
    const { dialect } = this.options;
    const timeoutMs = positive(x.timeoutMs, this.timeoutMs);
    if (x.signal?.aborted) throw dialect.aborted();
    // The caller's signal and the timeout, joined (AbortSignal.any, by hand: it must also
    // tell which fired, and let go of the caller's signal when the exchange ends).
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = () => controller.abort();
    x.signal?.addEventListener("abort", onAbort, { once: true });
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      clearTimeout(timer);
      x.signal?.removeEventListener("abort", onAbort);
    };
    /** What a thrown error means here: the caller stopped, the timer ran out, or the connection failed. */
    const failure = (error: unknown, stage: "send" | "read"): Error => {
      if (isBadAnswer(error)) return error;
      if (x.signal?.aborted) return dialect.aborted();
      if (timedOut)
        return dialect.noAnswer(
          `no answer from ${this.baseUrl} to ${x.label}: ${stage === "read" ? "the answer stalled" : "timed out"}: nothing more within ${seconds(timeoutMs)} s${timeoutMs < this.timeoutMs ? ` (what was left of the call's budget)` : ""}`,
          x.label,
          "timeout",
        );
      const code = codeOf(error);
      if (stage === "read") return dialect.noAnswer(`the answer to ${x.label} from ${this.baseUrl} broke off: ${this.redact(causeOf(error))}`, x.label, "broken_off");
      const reason: NoAnswerReason = code === "ECONNREFUSED" ? "refused" : code === "ENOTFOUND" ? "unknown_host" : isBadPort(error) ? "blocked_port" : "failed";
      const what =
        reason === "refused"
          ? "connection refused (ECONNREFUSED): nothing listens at that address"
          : reason === "unknown_host"
            ? "no such host (ENOTFOUND)"
            : reason === "blocked_port"
              ? `fetch never connects to port ${portOf(this.baseUrl)} (one of the ports it blocks), so this cannot succeed`
              : this.redact(causeOf(error));
      return dialect.noAnswer(`no answer from ${this.baseUrl} to ${x.label}: ${what}`, x.label, reason);
    };

    const headers: Record<string, string> = { Accept: "application/json", ...this.options.headers, ...x.headers };
    if (x.body !== undefined) headers["Content-Type"] = "application/json";
    this.debug(`→ ${x.label} ${JSON.stringify(headers)}`);
    if (x.auth) headers[x.auth.header] = authHeaderValue(x.auth);
    const body = x.body !== undefined ? JSON.stringify(x.body) : undefined;
    let url = this.baseUrl + x.path;
    let response: Response;
    try {
      for (let hops = 0; ; hops++) {
        response = await this.fetcher(url, { method: x.method, headers, ...(body !== undefined ? { body } : {}), redirect: "manual", signal: controller.signal });
        const next = this.redirectOf(response, url, x, hops);
        if (next === undefined) break;
        await cancelBody(response);
        url = next;
        this.debug(`↪ ${x.label} followed a redirect within ${this.origin}`);
      }
    } catch (error) {
      end();
      throw failure(error, "send");
    }
    this.debug(`← ${response.status} ${x.label}`);
    const answered = response;
    return {
      response: answered,
      text: async () => {
        try {
          return await this.readCapped(answered, x, controller.signal);
        } catch (error) {
          await cancelBody(answered);
          throw failure(error, "read");
        } finally {
          end();
        }
      },
      // The caller's signal still reaches the body; only the timer stops.
      release: () => clearTimeout(timer),
      discard: async () => {
        end();
        await cancelBody(answered);
      },
    };
  }

  /**
   * One exchange whose successful answer is JSON of `shape`; a refusal (not 2xx) is handed
   * to `refusal` with its parsed body (undefined when it had none, or none that could be read).
   */
  async exchange<T>(x: Exchange, shape: Guard, route: string, refusal: (status: number, body: unknown, headers: Headers) => Error): Promise<Answer<T>> {
    const opened = await this.open(x);
    const { response } = opened;
    if (!response.ok) {
      let text: string | undefined;
      try {
        text = await opened.text();
      } catch (error) {
        // An oversized or too deep refusal is still a refusal: its status says what it is.
        if (!isBadAnswer(error)) throw error;
      }
      throw refusal(response.status, text === undefined ? undefined : this.lenientJson(text), response.headers);
    }
    const text = await opened.text();
    return { body: this.checked<T>(text, response.status, x.label, shape, route), status: response.status, headers: response.headers };
  }

  /** A successful answer's text as the JSON `shape` says; anything else a bad answer naming the endpoint. */
  checked<T>(text: string, status: number, label: string, shape: Guard, route: string): T {
    const { dialect } = this.options;
    let json: unknown;
    if (text.trim() === "") json = undefined;
    else {
      if (nestedDeeperThan(text, MAX_ANSWER_DEPTH))
        throw dialect.badAnswer(`${label} answered ${status} with JSON nested deeper than ${MAX_ANSWER_DEPTH} levels, which no answer of ${dialect.api} has; refused`, label, "too_deep");
      try {
        json = JSON.parse(text);
      } catch {
        throw dialect.badAnswer(`${label} answered ${status} with a body that is not JSON; is ${this.baseUrl} ${dialect.api}?`, label, "not_json");
      }
    }
    const mismatch = shape(json);
    if (mismatch)
      throw dialect.badAnswer(`${label} answered ${status}, but ${describeMismatch(mismatch)} (not the shape the reference gives ${route}); is ${this.baseUrl} ${dialect.api}?`, label, "shape");
    return json as T;
  }

  /** A refusal's JSON, or undefined when its body is empty, not JSON, or too deep to walk. */
  private lenientJson(text: string): unknown {
    if (!text.trim() || nestedDeeperThan(text, MAX_ANSWER_DEPTH)) return undefined;
    try {
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  }

  /** The next URL to ask when `response` is a redirect this transport follows; undefined when it is no redirect; a bad answer when it is refused. */
  private redirectOf(response: Response, url: string, x: Exchange, hops: number): string | undefined {
    const { dialect } = this.options;
    const refuse = (why: string) => badAnswer(dialect.badAnswer(`${x.label}: ${why}`, x.label, "redirect"));
    if (response.type === "opaqueredirect")
      throw refuse(`${this.origin} answered with a redirect that this platform does not let a client read; refused (a redirect is followed only within the same origin, and only for a GET)`);
    if (!REDIRECT_STATUSES.has(response.status)) return undefined;
    const from = originOf(url);
    const location = response.headers.get("location");
    if (!location) throw refuse(`${from} answered ${response.status} (a redirect) without a Location; refused`);
    let target: URL;
    try {
      target = new URL(location, url);
    } catch {
      throw refuse(`${from} answered ${response.status} with a Location that is not an address; refused`);
    }
    const to = target.protocol === "http:" || target.protocol === "https:" ? target.origin : `a ${clip(target.protocol, 20)} address`;
    if (to !== this.origin)
      throw refuse(
        `${from} answered ${response.status}, redirecting to another origin, ${clip(to, 200)}; refused: a request is never sent to an origin other than the configured one (${this.origin}), where its credential was not meant to go. If the service has moved, use its new address as the base URL.`,
      );
    if (x.method !== "GET")
      throw refuse(`${from} answered ${response.status}, redirecting to ${clip(target.pathname, 200)}; refused: a ${x.method} is never sent again after a redirect (it could be done twice)`);
    if (hops >= MAX_REDIRECTS) throw refuse(`${from} redirected more than ${MAX_REDIRECTS} times; refused`);
    return target.href;
  }

  /** The body as text, at most `maxAnswerBytes`, counted as the bytes arrive; the stream is cancelled at the cap or when `signal` fires. */
  private async readCapped(response: Response, x: Exchange, signal: AbortSignal): Promise<string> {
    const limit = this.maxAnswerBytes;
    const tooLarge = () =>
      badAnswer(
        this.options.dialect.badAnswer(
          `${x.label}: the answer from ${this.baseUrl} is larger than ${bytes(limit)}, the most this client reads of one answer; refused, and not asked again`,
          x.label,
          "too_large",
        ),
      );
    const declared = Number(response.headers.get("content-length") ?? "");
    if (Number.isFinite(declared) && declared > limit) throw tooLarge();
    if (!response.body) return "";
    const reader = response.body.getReader();
    const onAbort = () => void reader.cancel().catch(() => undefined);
    signal.addEventListener("abort", onAbort, { once: true });
    const chunks: Uint8Array[] = [];
    let total = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (signal.aborted) throw new Error("aborted");
        if (done) break;
        total += value.byteLength;
        if (total > limit) {
          await reader.cancel().catch(() => undefined);
          throw tooLarge();
        }
        chunks.push(value);
      }
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
    const all = new Uint8Array(total);
    let offset = 0;
    for (const chunk of chunks) {
      all.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return new TextDecoder().decode(all);
  }

  debug(line: string): void {
    this.options.debug?.(this.redact(line));
  }

  /** Text that might quote a secret (a proxy's error, a debug line) never carries it. */
  redact(text: string): string {
    return redactSecrets(text, this.options.secrets);
  }
}

/** The bad answers this module made (a dialect's errors), marked so that a catch passes them on unchanged. */
const BAD_ANSWERS = new WeakSet<object>();
function badAnswer(error: Error): Error {
  BAD_ANSWERS.add(error);
  return error;
}
function isBadAnswer(error: unknown): error is Error {
  return typeof error === "object" && error !== null && BAD_ANSWERS.has(error);
}

async function cancelBody(response: Response): Promise<void> {
  try {
    await response.body?.cancel();
  } catch {
    // Already closed or errored: nothing left to free.
  }
}

/** Fetch's refusal of a port it blocks (the Fetch standard's "bad port" list: 1, 9, 25...). */
function isBadPort(error: unknown): boolean {
  const cause = error instanceof Error ? (error as { cause?: unknown }).cause : undefined;
  return cause instanceof Error && cause.message === "bad port";
}

function portOf(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.port || (parsed.protocol === "https:" ? "443" : "80");
  } catch {
    return "?";
  }
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

function positive(value: number | undefined, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : fallback;
}

function seconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}

function bytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/** Whether JSON text nests arrays and objects deeper than `max` (core's one-pass scan, brackets inside strings skipped). */
function nestedDeeperThan(text: string, max: number): boolean {
  return firstBracketBeyond(text, max) >= 0;
}
