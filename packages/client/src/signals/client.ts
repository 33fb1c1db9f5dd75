/**
 * `SignalsClient`: one typed method per endpoint of the Consumer Signals API, on the
 * platform's `fetch`. Parameters the reference constrains are checked before anything is
 * sent (`params.ts`), alert and view bodies with @wfkit/core's rules, and each request
 * carries the credential its endpoint takes: the JWT as `Authorization: Bearer` for data and
 * AI, the alert token as `X-Alert-Token` for alerts and views. Neither goes anywhere else.
 *
 * What is tried again, in one place (`call` and `ai`):
 * - Reads (every GET): after a lost answer or a 502/503/504, with the capped backoff of
 *   `retry.ts`; reading twice changes nothing.
 * - The AI endpoints: after a 429 only, waiting `Retry-After` plus 0-2 s of jitter, within
 *   the call's time and attempt budget; before sending, the client's own count holds a
 *   request back while this process has used the window (`rate-limit.ts`). A lost answer is
 *   not resent: the request may have been counted and done.
 * - Creating an alert or a view, deleting a view: never (a second send could make a second
 *   alert, or answer 404 for what the first did).
 *
 * How a request is sent (timeout, the cap on an answer, redirects, the answer's shape) is the
 * transport's (`../http.ts`), shared with `WorkflowsClient`: each credential goes only in its
 * own header, and only to the base URL's origin (a redirect elsewhere is refused, not followed).
 */
import { EDITOR_FIELDS, validateAlertBody, validateViewBody, type BodyValidationResult } from "@wfkit/core";
import { fillPath, SIGNALS_ROUTES, splitRoute, type Auth } from "@wfkit/api";
import { SIGNALS_SHAPES, type SignalsRoute } from "../answer-shapes.js";
import { WorkflowsAbortError } from "../errors.js";
import { alertTokenAuth, bearerAuth, HttpTransport, sendingOptionsOf, type AuthStrategy, type Dialect, type FetchLike, type Opened, type RetryNotice } from "../http.js";
import { DEFAULT_RETRY, realTiming, type RetryPolicy, type Timing } from "../retry.js";
import type {
  AccuracyResponse,
  AiRequestBody,
  Alert,
  AlertBody,
  Briefing,
  CensusResponse,
  CpixResponse,
  Geography,
  HistoryResponse,
  HousingResponse,
  ImportPressure,
  MacroResponse,
  SavedView,
  SignalSeverity,
  SignalsResponse,
  ViewBody,
} from "./api-types.js";
import {
  SIGNALS_REQUEST_CODES,
  SignalsAbortError,
  SignalsApiError,
  SignalsNetworkError,
  SignalsProtocolError,
  SignalsRateLimitError,
  SignalsRequestError,
  type SignalsRequestProblem,
} from "./errors.js";
import {
  CENSUS_GEOGRAPHY,
  checkDateRange,
  checkGeography,
  checkIdentifier,
  checkPeriods,
  checkSeverity,
  checkNameFilter,
  DEFAULT_GEOGRAPHY,
  IMPORT_PRESSURE_GEOGRAPHY,
  type Checked,
} from "./params.js";
import { AI_LIMIT, AiRateLimiter, LimiterDeadlineError, rateLimitOf, retryAfterWait, type AiLimit, type RateLimitInfo } from "./rate-limit.js";

/** How long and how many sends one AI call may take, through 429s and the client's own count. */
export interface AiBudget {
  /** No wait may end later than this long after the call began (default 150 s: two windows and their jitter). */
  budgetMs: number;
  /** At most this many requests for one call, the first included (default 6). */
  maxAttempts: number;
}

export const DEFAULT_AI_BUDGET: AiBudget = { budgetMs: 150_000, maxAttempts: 6 };

/** A wait an AI call took before a send, reported as it ends. */
export type AiWait =
  /** The client's own count (or another call's 429) held the request back. */
  | { kind: "throttled"; request: string; attempt: number; waitedMs: number }
  /** After a 429: `Retry-After` plus jitter was asked for; `waitedMs` is what the wait came to. */
  | { kind: "retry-after"; request: string; attempt: number; retryAfterMs: number; jitterMs: number; waitedMs: number; rateLimit: RateLimitInfo | undefined };

export interface SignalsClientOptions {
  /** The service's base address; paths (`/api/...`) are joined onto it, so it may end in a path. */
  baseUrl: string;
  /** For the data and AI endpoints, sent only as `Authorization: Bearer`. */
  jwt?: string;
  /** For alerts and views, sent only as `X-Alert-Token`. */
  alertToken?: string;
  fetch?: FetchLike;
  timing?: Partial<Timing>;
  /** Backoff of reads after a lost answer or a 502/503/504 (the Workflows client's policy). */
  retry?: Partial<RetryPolicy>;
  /** The default budget of each AI call. */
  aiBudget?: Partial<AiBudget>;
  /** Share one limiter between clients of one user in one process; default: a new one. */
  aiLimiter?: AiRateLimiter;
  /** The count of the default limiter (default 10 per 60 s); `false` keeps no count (429s alone pace it). */
  aiLimit?: AiLimit | false;
  /** Every wait an AI call takes. */
  onAiWait?: (wait: AiWait) => void;
  /** Debug lines (requests, answers, waits), with both credentials redacted. */
  debug?: (line: string) => void;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
  /** How long one request may take, its answer's body included (default 30 s); retries get their own. A stream's body is the caller's to time. */
  timeoutMs?: number;
  /** The most read of one answer (default 16 MiB); a larger one is a `too_large` SignalsProtocolError, not retried. */
  maxAnswerBytes?: number;
  /** Told of each retry of a read before its wait. */
  onRetry?: (notice: RetryNotice) => void;
}

const DIALECT: Dialect = {
  api: "the Consumer Signals API",
  noAnswer: (message, request, reason) => new SignalsNetworkError(message, request, reason),
  badAnswer: (message, request, reason) => new SignalsProtocolError(message, request, reason),
  aborted: () => new SignalsAbortError("aborted"),
};

export interface SignalsCallOptions {
  signal?: AbortSignal;
}

export interface AiCallOptions extends SignalsCallOptions {
  budget?: Partial<AiBudget>;
  onWait?: (wait: AiWait) => void;
}

/** An AI endpoint's answer with what the limit did on the way. */
export interface AiResult<T> {
  body: T;
  /** The answer's `X-RateLimit-*` headers, when it had them. */
  rateLimit: RateLimitInfo | undefined;
  /** Requests sent, the answered one included. */
  attempts: number;
  waits: AiWait[];
}

/** `investigate/stream`'s answer: the response with its body unread, for the caller to consume. */
export interface AiStream extends Omit<AiResult<never>, "body"> {
  response: Response;
}

export interface SignalsQuery {
  geography?: Geography;
  severity?: SignalSeverity;
  category?: string;
  /** Recent periods to include (default 1). */
  periods?: number;
}

export interface HistoryQuery {
  geography?: Geography;
  /** YYYY-MM-DD (default 2020-01-01). */
  from?: string;
  /** YYYY-MM-DD (default today). */
  to?: string;
}

/** Which credential a route takes, from the contract's `auth`: the JWT (data and AI) or the alert token (alerts and views). */
type Credential = "jwt" | "alert-token";
const credentialOf = (auth: Auth): Credential => (auth === "alert_token" ? "alert-token" : "jwt");

interface Call {
  /** The route, as the contract's route table names it. */
  route: SignalsRoute;
  /** The values of its path's `{parameters}`. */
  params?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  signal?: AbortSignal | undefined;
}

/** The paths of the GET routes without parameters in their path. */
type GetPath<R> = R extends `GET ${infer P}` ? (P extends `${string}{${string}` ? never : P) : never;
type ReadPath = GetPath<SignalsRoute>;

export class SignalsClient {
  /** The `X-RateLimit-*` headers of the last AI answer that had them. */
  lastRateLimit: RateLimitInfo | undefined;
  private readonly timing: Timing;
  private readonly http: HttpTransport;
  private readonly aiBudget: AiBudget;
  private readonly limiter: AiRateLimiter;

  constructor(private readonly options: SignalsClientOptions) {
    this.timing = { ...realTiming, ...options.timing };
    const policy: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry };
    this.http = new HttpTransport({
      ...sendingOptionsOf(options),
      secrets: [options.jwt, options.alertToken],
      policy,
      timing: this.timing,
      dialect: DIALECT,
    });
    this.aiBudget = { ...DEFAULT_AI_BUDGET, ...options.aiBudget };
    this.limiter = options.aiLimiter ?? new AiRateLimiter({ limit: options.aiLimit ?? AI_LIMIT, timing: this.timing });
  }

  // ---- data (JWT) ------------------------------------------------------------------------

  /** Current signals; `geography` defaults to US. */
  async signals(query: SignalsQuery = {}, options: SignalsCallOptions = {}): Promise<SignalsResponse> {
    const path = "/api/signals";
    const request = `GET ${path}`;
    return this.read(path, options, {
      geography: need(checkGeography(query.geography ?? DEFAULT_GEOGRAPHY), request),
      severity: query.severity === undefined ? undefined : need(checkSeverity(query.severity), request),
      category: query.category === undefined ? undefined : need(checkNameFilter(query.category, "category", "energy"), request),
      periods: query.periods === undefined ? undefined : need(checkPeriods(query.periods), request),
    });
  }

  /** The composite index: summary and drivers; `geography` defaults to US. */
  async cpix(query: { geography?: Geography } = {}, options: SignalsCallOptions = {}): Promise<CpixResponse> {
    const path = "/api/cpix";
    const request = `GET ${path}`;
    return this.read(path, options, { geography: need(checkGeography(query.geography ?? DEFAULT_GEOGRAPHY), request) });
  }

  /** The index's history, in chronological order; `from`/`to` are YYYY-MM-DD and must not run backwards. */
  async history(query: HistoryQuery = {}, options: SignalsCallOptions = {}): Promise<HistoryResponse> {
    const path = "/api/history";
    const request = `GET ${path}`;
    const geography = need(checkGeography(query.geography ?? DEFAULT_GEOGRAPHY), request);
    const range = need(checkDateRange(query.from, query.to), request);
    return this.read(path, options, { geography, from: range.from, to: range.to });
  }

  async accuracy(options: SignalsCallOptions = {}): Promise<AccuracyResponse> {
    return this.read("/api/signals/accuracy", options);
  }

  /** The latest weekly briefing; the service requires `geography`, so the client always sends it (default US). */
  async briefing(query: { geography?: Geography } = {}, options: SignalsCallOptions = {}): Promise<Briefing> {
    const path = "/api/briefing/latest";
    const request = `GET ${path}`;
    return this.read(path, options, { geography: need(checkGeography(query.geography ?? DEFAULT_GEOGRAPHY), request) });
  }

  /** A UK sector's import pressure; the service serves the UK only, so `geography` is UK or left out. */
  async importPressure(sectorId: string, query: { geography?: Geography } = {}, options: SignalsCallOptions = {}): Promise<ImportPressure> {
    const label = "GET /api/sectors/{sectorId}/import-pressure";
    const id = need(checkIdentifier(sectorId, "sectorId", "grocery"), label);
    const geography = need(checkGeography(query.geography ?? IMPORT_PRESSURE_GEOGRAPHY, IMPORT_PRESSURE_GEOGRAPHY), label);
    return this.call({ route: "GET /api/sectors/{sectorId}/import-pressure", params: { sectorId: id }, query: { geography }, signal: options.signal });
  }

  /** US retail sales from the census; the service serves the US only. */
  async census(query: { geography?: Geography } = {}, options: SignalsCallOptions = {}): Promise<CensusResponse> {
    const path = "/api/census-marts";
    const request = `GET ${path}`;
    return this.read(path, options, { geography: need(checkGeography(query.geography ?? CENSUS_GEOGRAPHY, CENSUS_GEOGRAPHY), request) });
  }

  async housing(options: SignalsCallOptions = {}): Promise<HousingResponse> {
    return this.read("/api/housing", options);
  }

  async macro(options: SignalsCallOptions = {}): Promise<MacroResponse> {
    return this.read("/api/macro", options);
  }

  // ---- alerts and views (X-Alert-Token) --------------------------------------------------

  /**
   * Creates an alert. The body is judged by @wfkit/core's alert rules first: with an error,
   * nothing is sent (`body-invalid`, every fault attached); warnings do not stop it, and
   * unknown fields are sent as written. `$schema` (editor metadata) is left out.
   */
  async createAlert(body: AlertBody | Record<string, unknown>, options: SignalsCallOptions = {}): Promise<Alert> {
    const request = "POST /api/alerts";
    const checked = need(checkBody(validateAlertBody(body), "alert"), request);
    return this.call({ route: "POST /api/alerts", body: checked, signal: options.signal });
  }

  /** `GET /api/alerts` exists, but its query and answer are not shown: the answer's JSON as sent. */
  async alerts(options: SignalsCallOptions = {}): Promise<unknown> {
    return this.call({ route: "GET /api/alerts", signal: options.signal });
  }

  async views(options: SignalsCallOptions = {}): Promise<SavedView[]> {
    return this.call({ route: "GET /api/views", signal: options.signal });
  }

  /** Creates a saved view, its body judged by @wfkit/core's view rules first (as `createAlert`). */
  async createView(body: ViewBody | Record<string, unknown>, options: SignalsCallOptions = {}): Promise<SavedView> {
    const request = "POST /api/views";
    const checked = need(checkBody(validateViewBody(body), "saved view"), request);
    return this.call({ route: "POST /api/views", body: checked, signal: options.signal });
  }

  /** Deletes a saved view (the service answers 204). */
  async deleteView(id: string, options: SignalsCallOptions = {}): Promise<void> {
    const viewId = need(checkIdentifier(id, "id", "view_123"), "DELETE /api/views/{id}");
    await this.call({ route: "DELETE /api/views/{id}", params: { id: viewId }, signal: options.signal });
  }

  // ---- AI (JWT, one shared limit) --------------------------------------------------------

  /** `POST /api/investigate`; its payload and answer are not shown in the reference. */
  async investigate<T = unknown>(payload: AiRequestBody, options: AiCallOptions = {}): Promise<AiResult<T>> {
    return this.aiJson<T>("/api/investigate", payload, options);
  }

  /** `POST /api/analyze`; its payload and answer are not shown in the reference. */
  async analyze<T = unknown>(payload: AiRequestBody, options: AiCallOptions = {}): Promise<AiResult<T>> {
    return this.aiJson<T>("/api/analyze", payload, options);
  }

  /** `POST /api/investigate/stream`: the response once it is not a 429, its body left to the caller. */
  async investigateStream(payload: AiRequestBody, options: AiCallOptions = {}): Promise<AiStream> {
    const { opened, ...rest } = await this.ai("/api/investigate/stream", payload, options);
    if (!opened.response.ok) throw await this.refusal(opened, "POST /api/investigate/stream");
    // The body is the caller's to read (and to time): the timeout ends with the headers.
    opened.release();
    return { response: opened.response, ...rest };
  }

  /** When an AI request asked now could be sent by the client's own count (ms on its clock). */
  aiReadyAt(): number {
    return this.limiter.readyAt();
  }

  // ---- transport -------------------------------------------------------------------------

  /** A GET of a data endpoint (JWT). */
  private read<T>(path: ReadPath, options: SignalsCallOptions, query?: Record<string, string | number | undefined>): Promise<T> {
    return this.call({ route: `GET ${path}`, ...(query ? { query } : {}), signal: options.signal });
  }

  /** A route of the contract: its method and path, its credential, what may be sent again and the answer's shape all come from its row. */
  private async call<T>(call: Call): Promise<T> {
    const spec = SIGNALS_ROUTES[call.route];
    const { method, path: template } = splitRoute(call.route);
    const path = fillPath(template, call.params ?? {});
    const label = `${method} ${path}`;
    const auth = this.authFor(credentialOf(spec.auth), label);
    const shape = SIGNALS_SHAPES[call.route];
    // Reads only (`resend: safe`): see the file's comment.
    const retryable = (error: unknown) => spec.resend === "safe" && ((error instanceof SignalsNetworkError && error.retryable) || (error instanceof SignalsApiError && error.retryable));
    return this.aborting(call.signal, async () => {
      const answer = await this.http.retrying(label, call.signal, retryable, (timeoutMs) =>
        this.http.exchange<T>(
          { method, path: this.pathOf(path, call.query), body: call.body, auth, label, signal: call.signal, timeoutMs },
          shape,
          call.route,
          (status, json, headers) => this.refusalOf(status, json, label, headers),
        ),
      );
      return answer.body;
    });
  }

  private async aiJson<T>(path: "/api/investigate" | "/api/analyze", payload: AiRequestBody, options: AiCallOptions): Promise<AiResult<T>> {
    const { opened, ...rest } = await this.ai(path, payload, options);
    const label = `POST ${path}` as const;
    if (!opened.response.ok) throw await this.refusal(opened, label);
    const text = await opened.text();
    return { body: this.http.checked<T>(text, opened.response.status, label, SIGNALS_SHAPES[label], label), ...rest };
  }

  /** Sends an AI request through the limiter until it is answered with anything but a 429, or the budget ends. */
  private async ai(path: "/api/investigate" | "/api/investigate/stream" | "/api/analyze", payload: AiRequestBody, options: AiCallOptions): Promise<Omit<AiStream, "response"> & { opened: Opened }> {
    const label = `POST ${path}` as const;
    const auth = this.authFor(credentialOf(SIGNALS_ROUTES[label].auth), label);
    const budget = { ...this.aiBudget, ...options.budget };
    const deadline = this.timing.now() + budget.budgetMs;
    const windowMs = this.limiter.limit ? this.limiter.limit.windowMs : AI_LIMIT.windowMs;
    const waits: AiWait[] = [];
    let attempts = 0;
    let last: { retryAfterMs: number; jitterMs: number; rateLimit: RateLimitInfo | undefined } | undefined;
    return this.aborting(options.signal, async () => {
      for (;;) {
        let waitedMs: number;
        let sentAt: number;
        try {
          ({ waitedMs, sentAt } = await this.limiter.acquire(deadline, options.signal));
        } catch (error) {
          if (!(error instanceof LimiterDeadlineError)) throw error;
          throw this.outOfBudget(label, last ? "service" : "client", error.readyAt, attempts, last?.rateLimit, budget);
        }
        attempts++;
        const wait: AiWait | undefined = last
          ? { kind: "retry-after", request: label, attempt: attempts, retryAfterMs: last.retryAfterMs, jitterMs: last.jitterMs, waitedMs, rateLimit: last.rateLimit }
          : waitedMs > 0
            ? { kind: "throttled", request: label, attempt: attempts, waitedMs }
            : undefined;
        if (wait) {
          waits.push(wait);
          this.debug(`${label}: attempt ${attempts} after waiting ${waitedMs} ms (${wait.kind})`);
          options.onWait?.(wait);
          this.options.onAiWait?.(wait);
        }
        const opened = await this.http.open({ method: "POST", path, body: payload, auth, label, signal: options.signal }).finally(() => this.limiter.answered(sentAt));
        const { response } = opened;
        const rateLimit = rateLimitOf(response.headers);
        if (rateLimit) this.lastRateLimit = rateLimit;
        if (response.status !== 429) return { opened, rateLimit, attempts, waits };
        await opened.discard();
        const now = this.timing.now();
        const next = retryAfterWait(rateLimit, now, this.timing.random(), windowMs);
        const until = now + next.retryAfterMs + next.jitterMs;
        if (attempts >= budget.maxAttempts || until > deadline) throw this.outOfBudget(label, "service", now + next.retryAfterMs, attempts, rateLimit, budget);
        this.limiter.pauseUntil(until);
        last = { ...next, rateLimit };
      }
    });
  }

  private outOfBudget(label: string, origin: "service" | "client", retryAt: number, attempts: number, rateLimit: RateLimitInfo | undefined, budget: AiBudget): SignalsRateLimitError {
    const at = new Date(retryAt).toISOString();
    const seconds = Math.ceil((retryAt - this.timing.now()) / 1000);
    const limit = `the AI endpoints' shared limit (${rateLimit?.limit ?? this.limiterRequests()} requests per window per user, across investigate, investigate/stream and analyze)`;
    const message =
      origin === "client"
        ? `${label} was not sent: this process has used ${limit}, and the next request could go only at ${at}, in ${seconds} s, past this call's budget of ${Math.round(budget.budgetMs / 1000)} s. Send fewer AI requests at once, or give the call a larger budget.`
        : attempts >= budget.maxAttempts
          ? `${label} was refused with 429 ${attempts} time(s), the most this call's budget allows: ${limit} is used up until ${at}. Try again then, or allow more attempts.`
          : `${label} was refused with 429: ${limit} is used up, and the service asks to wait ${seconds} s (until ${at}), past this call's budget of ${Math.round(budget.budgetMs / 1000)} s. Try again then, or give the call a larger budget.`;
    return new SignalsRateLimitError(message, label, origin, retryAt, attempts, rateLimit);
  }

  private limiterRequests(): number {
    return this.limiter.limit ? this.limiter.limit.requests : AI_LIMIT.requests;
  }

  /** The credential an endpoint takes, or a refusal to send when the client was given none. */
  private authFor(kind: Credential, label: string): AuthStrategy {
    const credential = kind === "jwt" ? this.options.jwt : this.options.alertToken;
    if (!credential) {
      const what = kind === "jwt" ? "a JWT (`jwt`, sent as `Authorization: Bearer`)" : "an alert token (`alertToken`, sent as `X-Alert-Token`)";
      const problem: SignalsRequestProblem = {
        code: SIGNALS_REQUEST_CODES.credentialMissing,
        parameter: kind === "jwt" ? "jwt" : "alertToken",
        message: `${label} needs ${what}, and the client was given none. Pass it in the client's options.`,
      };
      throw new SignalsRequestError(problem, label);
    }
    return kind === "jwt" ? bearerAuth(credential) : alertTokenAuth(credential);
  }

  /** The path with its query. */
  private pathOf(path: string, query: Call["query"]): string {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) params.set(name, String(value));
    const search = params.toString();
    return `${path}${search ? `?${search}` : ""}`;
  }

  /** A refusal read from an opened exchange (its body within the transport's limits). */
  private async refusal(opened: Opened, label: string): Promise<SignalsApiError> {
    let text: string | undefined;
    try {
      text = await opened.text();
    } catch (error) {
      if (!(error instanceof SignalsProtocolError)) throw error;
    }
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    return this.refusalOf(opened.response.status, body, label, opened.response.headers);
  }

  private refusalOf(status: number, body: unknown, label: string, headers: Headers): SignalsApiError {
    return new SignalsApiError(status, redactDeep(body, (s) => this.redact(s)), label, rateLimitOf(headers));
  }

  /** Runs `work`, turning an abort (from the caller's signal, in a wait or a fetch) into `SignalsAbortError`. */
  private async aborting<T>(signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof WorkflowsAbortError || (signal?.aborted && !(error instanceof SignalsAbortError))) throw new SignalsAbortError("aborted");
      throw error;
    }
  }

  private debug(line: string): void {
    this.http.debug(line);
  }

  /** Text that might quote a credential never carries it. */
  redact(text: string): string {
    return this.http.redact(text);
  }
}

/** A checked value, or the refusal it earns. */
function need<T>(checked: Checked<T>, request: string): T {
  if (checked.ok) return checked.value;
  throw new SignalsRequestError(checked.problem, request);
}

/** The body to send (without editor fields), or `body-invalid` with every fault. */
function checkBody(verdict: BodyValidationResult, bodyName: string): Checked<Record<string, unknown>> {
  if (verdict.ok) {
    const sent = Object.fromEntries(Object.entries(verdict.body).filter(([name]) => !EDITOR_FIELDS.includes(name)));
    return { ok: true, value: sent };
  }
  const errors = verdict.faults.filter((fault) => fault.severity === "error");
  const first = errors[0]!;
  return {
    ok: false,
    problem: {
      code: SIGNALS_REQUEST_CODES.bodyInvalid,
      parameter: "body",
      message: `The ${bodyName} body has ${errors.length} error(s), so it was not sent (the service would refuse it); the first, ${first.code}${first.pointer ? ` at ${first.pointer}` : ""}: ${first.message}`,
      faults: verdict.faults,
    },
  };
}

/** JSON with every string passed through `redact` (an error body may echo a header). */
function redactDeep(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, redact));
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactDeep(item, redact)]));
  return value;
}
