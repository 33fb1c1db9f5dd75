/**
 * `WorkflowsClient`: one typed method per endpoint of the Workflows API, on the platform's
 * `fetch` (Node, browsers, the VS Code extension host).
 *
 * Each method names its route in @wfkit/api's route table, which gives its method and path,
 * whether it may be sent again (`resend`) and its answer's shape. What is retried, and why
 * (the rule in one place, `RETRY` and `call`):
 * - `503 research_capacity_unavailable` (the usage system was unreachable; nothing started):
 *   on run start, the only route that reserves usage.
 * - A network failure (no answer) on a request that is safe to send twice: every read, run
 *   start (always with the same Idempotency-Key, so the service answers the first run again),
 *   and publish (publishing the same version twice publishes it once). Creating a workflow,
 *   saving a version, delivering and cancelling are not retried after a lost answer: a second
 *   send could make a second workflow or version, or answer 409 for what the first one did.
 * - Nothing else: a 4xx is the service's final word, and so is an answer the transport did
 *   not take (a refused redirect, one too large, one not of its endpoint's shape).
 *
 * How a request is sent (timeout, the cap on an answer, redirects, the answer's shape) is the
 * transport's (`http.ts`), shared with `SignalsClient`; the credential goes only as
 * `Authorization: Bearer`, and only to the base URL's origin.
 */
import { fillPath, splitRoute, WORKFLOWS_ROUTES, type Resend, type WorkflowsAnswers, type WorkflowsRequests } from "@wfkit/api";
import type { CreateWorkflowResponse, PartsResponse, PublishResponse, ResolveSubjectsResponse, Run, RunChangeResponse, RunFilter, RunListResponse, SaveVersionRequest, SaveVersionResponse, StartRunResponse, Template, ValidateDefinitionResponse } from "./api-types.js";
import { TERMINAL_RUN_STATES } from "./api-types.js";
import { WORKFLOWS_SHAPES, type WorkflowsRoute } from "./answer-shapes.js";
import { errorBodyOf, WorkflowsAbortError, WorkflowsApiError, WorkflowsNetworkError, WorkflowsProtocolError } from "./errors.js";
import { bearerAuth, HttpTransport, sendingOptionsOf, type Dialect, type FetchLike, type RetryNotice } from "./http.js";
import { DEFAULT_RETRY, realTiming, type RetryPolicy, type Timing } from "./retry.js";

export type { FetchLike, RetryNotice };

const DIALECT: Dialect = {
  api: "the Workflows API",
  noAnswer: (message, request, reason) => new WorkflowsNetworkError(message, request, reason),
  badAnswer: (message, request, reason) => new WorkflowsProtocolError(message, request, reason),
  aborted: () => new WorkflowsAbortError("aborted"),
};

export interface ClientOptions {
  /** The service's base address, e.g. `https://example.test` or `http://127.0.0.1:8787`. */
  baseUrl: string;
  /** An API key, session JWT or OAuth token; sent only as `Authorization: Bearer`. */
  credential?: string;
  fetch?: FetchLike;
  retry?: Partial<RetryPolicy>;
  timing?: Partial<Timing>;
  /** Debug lines (requests, answers, retries), with the credential redacted. */
  debug?: (line: string) => void;
  /** Extra headers on every request (e.g. `Wfkit-Mock-Case` for the local service). */
  headers?: Record<string, string>;
  /** Makes Idempotency-Keys for run starts that do not bring one (default: a random UUID). */
  newIdempotencyKey?: () => string;
  /** How long one request may take, its answer's body included (default 30 s); retries get their own. */
  timeoutMs?: number;
  /** The most read of one answer (default 16 MiB); a larger one is a `too_large` WorkflowsProtocolError, not retried. */
  maxAnswerBytes?: number;
  /** Told of each retry before its wait (what failed, the wait, the attempt to come). */
  onRetry?: (notice: RetryNotice) => void;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export interface StartRunOptions extends CallOptions {
  question?: string;
  /** Reuse a key to make a retry of the same run start; a new random key when absent. */
  idempotencyKey?: string;
}

export interface StartedRun extends StartRunResponse {
  /** The key the start was sent with: keep it to retry the start safely. */
  idempotencyKey: string;
  /** True when the service answered an earlier start made with this key. */
  replayed: boolean;
}

export interface WaitOptions extends CallOptions {
  /** Called after each poll with the run as it is. */
  onProgress?: (run: Run) => void;
  /** First interval between polls (default 250 ms), growing by `factor` up to `maxIntervalMs`. */
  initialIntervalMs?: number;
  maxIntervalMs?: number;
  factor?: number;
  /** Also stop at `held` (a hold gate waits for delivery; default true). */
  stopWhenHeld?: boolean;
}

type Retry = "none" | "network" | "network-and-usage";

/**
 * What a route's `resend` in the contract allows: a read or publish again after a lost answer;
 * the run start also after `503 research_capacity_unavailable` (the only route that reserves
 * usage, sent again with its Idempotency-Key); nothing else.
 */
const RETRY: Readonly<Record<Resend, Retry>> = { safe: "network", with_key: "network-and-usage", never: "none" };

interface Call<K extends WorkflowsRoute> {
  /** The route, as the contract's route table names it. */
  route: K;
  /** The values of its path's `{parameters}`. */
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: K extends keyof WorkflowsRequests ? WorkflowsRequests[K] : undefined;
  headers?: Record<string, string>;
  signal?: AbortSignal | undefined;
}

/** `?name=value&...`, each value encoded as a URI component ("" for none). */
function queryString(query: Record<string, string> | undefined): string {
  const pairs = Object.entries(query ?? {});
  return pairs.length ? `?${pairs.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("&")}` : "";
}

export class WorkflowsClient {
  private readonly timing: Timing;
  private readonly http: HttpTransport;

  constructor(private readonly options: ClientOptions) {
    const policy: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry };
    this.timing = { ...realTiming, ...options.timing };
    this.http = new HttpTransport({
      ...sendingOptionsOf(options),
      secrets: [options.credential],
      policy,
      timing: this.timing,
      dialect: DIALECT,
    });
  }

  // ---- catalogue ----------------------------------------------------------------------

  parts(options: CallOptions & { unattendedSafe?: boolean } = {}): Promise<PartsResponse> {
    return this.call({ route: "GET /api/v1/workflows/catalogue/parts", ...(options.unattendedSafe ? { query: { unattendedSafe: "1" } } : {}), signal: options.signal });
  }

  resolveSubjects(hints: string[], options: CallOptions = {}): Promise<ResolveSubjectsResponse> {
    return this.call({ route: "POST /api/v1/workflows/catalogue/resolve-subjects", body: { hints }, signal: options.signal });
  }

  /** Valid: the estimate and warnings. Invalid: throws a `validation_failed` error with every fault. */
  validateDefinition(definition: unknown, options: CallOptions = {}): Promise<ValidateDefinitionResponse> {
    return this.call({ route: "POST /api/v1/workflows/catalogue/validate-definition", body: { definition }, signal: options.signal });
  }

  templates(options: CallOptions = {}): Promise<Template[]> {
    return this.call({ route: "GET /api/v1/workflows/templates", signal: options.signal });
  }

  // ---- workflows and versions -------------------------------------------------------------

  createWorkflow(name: string, options: CallOptions = {}): Promise<CreateWorkflowResponse> {
    return this.call({ route: "POST /api/v1/workflows", body: { name }, signal: options.signal });
  }

  saveVersion(workflowId: string, body: SaveVersionRequest, options: CallOptions = {}): Promise<SaveVersionResponse> {
    return this.call({ route: "POST /api/v1/workflows/{wf}/versions", params: { wf: workflowId }, body, signal: options.signal });
  }

  publish(workflowId: string, versionId: string, options: CallOptions = {}): Promise<PublishResponse> {
    return this.call({ route: "POST /api/v1/workflows/{wf}/versions/{version}/publish", params: { wf: workflowId, version: versionId }, signal: options.signal });
  }

  // ---- runs ------------------------------------------------------------------------------

  /** Always sends an Idempotency-Key (the caller's or a new one, returned), so a retry cannot start a second run. */
  async startRun(workflowId: string, options: StartRunOptions = {}): Promise<StartedRun> {
    const idempotencyKey = options.idempotencyKey ?? this.newKey();
    let replayed = false;
    const body = await this.call(
      {
        route: "POST /api/v1/workflows/{wf}/run",
        params: { wf: workflowId },
        body: options.question !== undefined ? { question: options.question } : {},
        headers: { "Idempotency-Key": idempotencyKey },
        signal: options.signal,
      },
      (headers) => (replayed = headers.get("Idempotent-Replayed") === "true"),
    );
    return { ...body, idempotencyKey, replayed };
  }

  run(workflowId: string, runId: string, options: CallOptions = {}): Promise<Run> {
    return this.call({ route: "GET /api/v1/workflows/{wf}/runs/{run}", params: { wf: workflowId, run: runId }, signal: options.signal });
  }

  workflowRuns(workflowId: string, options: CallOptions = {}): Promise<RunListResponse> {
    return this.call({ route: "GET /api/v1/workflows/{wf}/runs", params: { wf: workflowId }, signal: options.signal });
  }

  runs(state: RunFilter = "all", options: CallOptions = {}): Promise<RunListResponse> {
    return this.call({ route: "GET /api/v1/workflows/runs", query: { state }, signal: options.signal });
  }

  deliver(workflowId: string, runId: string, options: CallOptions = {}): Promise<RunChangeResponse> {
    return this.call({ route: "POST /api/v1/workflows/{wf}/runs/{run}/deliver", params: { wf: workflowId, run: runId }, signal: options.signal });
  }

  cancel(workflowId: string, runId: string, options: CallOptions = {}): Promise<RunChangeResponse> {
    return this.call({ route: "POST /api/v1/workflows/{wf}/runs/{run}/cancel", params: { wf: workflowId, run: runId }, signal: options.signal });
  }

  /**
   * Polls a run until it is terminal (or held, unless `stopWhenHeld` is false), waiting longer
   * between polls as it goes; each poll is reported to `onProgress`. Aborting stops it.
   */
  async waitForRun(workflowId: string, runId: string, options: WaitOptions = {}): Promise<Run> {
    const factor = options.factor ?? 1.5;
    const maxInterval = options.maxIntervalMs ?? 5_000;
    let interval = options.initialIntervalMs ?? 250;
    for (;;) {
      const run = await this.run(workflowId, runId, { signal: options.signal });
      options.onProgress?.(run);
      if (TERMINAL_RUN_STATES.includes(run.state) || (run.state === "held" && options.stopWhenHeld !== false)) return run;
      await this.timing.sleep(interval, options.signal);
      interval = Math.min(maxInterval, interval * factor);
    }
  }

  // ---- transport -------------------------------------------------------------------------

  private newKey(): string {
    return this.options.newIdempotencyKey ? this.options.newIdempotencyKey() : globalThis.crypto.randomUUID();
  }

  /** A route of the contract: its method and path, what may be sent again and the answer's shape all come from its row. */
  private async call<K extends WorkflowsRoute>(call: Call<K>, onResponse?: (headers: Headers) => void): Promise<WorkflowsAnswers[K]> {
    const { method, path: template } = splitRoute(call.route);
    const path = `${fillPath(template, call.params ?? {})}${queryString(call.query)}`;
    const label = `${method} ${path}`;
    const retry = RETRY[WORKFLOWS_ROUTES[call.route].resend];
    const retryable = (error: unknown) =>
      (error instanceof WorkflowsNetworkError && error.retryable && retry !== "none") || (error instanceof WorkflowsApiError && error.retryable && retry === "network-and-usage");
    const auth = this.options.credential ? bearerAuth(this.options.credential) : undefined;
    const shape = WORKFLOWS_SHAPES[call.route];
    const answer = await this.http.retrying(label, call.signal, retryable, (timeoutMs) =>
      this.http.exchange<WorkflowsAnswers[K]>(
        { method, path, body: call.body, headers: call.headers, auth, label, signal: call.signal, timeoutMs },
        shape,
        call.route,
        (status, json) => new WorkflowsApiError(status, errorBodyOf(status, json), label),
      ),
    );
    onResponse?.(answer.headers);
    return answer.body;
  }

  /** Text that might quote the credential (a proxy's error, a debug line) never carries it. */
  redact(text: string): string {
    return this.http.redact(text);
  }
}
