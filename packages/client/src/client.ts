/**
 * `WorkflowsClient`: one typed method per endpoint of the Workflows API, on the platform's
 * `fetch` (Node, browsers, the VS Code extension host).
 *
 * What is retried, and why (the rule in one place, `retriesOn`):
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
import type {
  CreateWorkflowResponse,
  ErrorBody,
  PartsResponse,
  PublishResponse,
  ResolveSubjectsResponse,
  Run,
  RunChangeResponse,
  RunFilter,
  RunListResponse,
  SaveVersionRequest,
  SaveVersionResponse,
  StartRunResponse,
  Template,
  ValidateDefinitionResponse,
} from "./api-types.js";
import { TERMINAL_RUN_STATES } from "./api-types.js";
import { WORKFLOWS_SHAPES, type WorkflowsRoute } from "./answer-shapes.js";
import { errorBodyOf, WorkflowsAbortError, WorkflowsApiError, WorkflowsNetworkError, WorkflowsProtocolError } from "./errors.js";
import { bearerAuth, HttpTransport, type Dialect, type FetchLike, type RetryNotice } from "./http.js";
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

interface Call {
  method: "GET" | "POST";
  /** The route as the answer-shape table names it. */
  route: WorkflowsRoute;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  retry: Retry;
  signal?: AbortSignal | undefined;
}

const API = "/api/v1/workflows";
const segment = (id: string) => encodeURIComponent(id);

export class WorkflowsClient {
  private readonly timing: Timing;
  private readonly http: HttpTransport;

  constructor(private readonly options: ClientOptions) {
    const policy: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry };
    this.timing = { ...realTiming, ...options.timing };
    this.http = new HttpTransport({
      baseUrl: options.baseUrl,
      fetch: options.fetch,
      timeoutMs: options.timeoutMs,
      maxAnswerBytes: options.maxAnswerBytes,
      headers: options.headers,
      debug: options.debug,
      onRetry: options.onRetry,
      secrets: [options.credential],
      policy,
      timing: this.timing,
      dialect: DIALECT,
    });
  }

  // ---- catalogue ----------------------------------------------------------------------

  parts(options: CallOptions & { unattendedSafe?: boolean } = {}): Promise<PartsResponse> {
    return this.call({ method: "GET", route: "GET /api/v1/workflows/catalogue/parts", path: `${API}/catalogue/parts${options.unattendedSafe ? "?unattendedSafe=1" : ""}`, retry: "network", signal: options.signal });
  }

  resolveSubjects(hints: string[], options: CallOptions = {}): Promise<ResolveSubjectsResponse> {
    return this.call({ method: "POST", route: "POST /api/v1/workflows/catalogue/resolve-subjects", path: `${API}/catalogue/resolve-subjects`, body: { hints }, retry: "network", signal: options.signal });
  }

  /** Valid: the estimate and warnings. Invalid: throws a `validation_failed` error with every fault. */
  validateDefinition(definition: unknown, options: CallOptions = {}): Promise<ValidateDefinitionResponse> {
    return this.call({ method: "POST", route: "POST /api/v1/workflows/catalogue/validate-definition", path: `${API}/catalogue/validate-definition`, body: { definition }, retry: "network", signal: options.signal });
  }

  templates(options: CallOptions = {}): Promise<Template[]> {
    return this.call({ method: "GET", route: "GET /api/v1/workflows/templates", path: `${API}/templates`, retry: "network", signal: options.signal });
  }

  // ---- workflows and versions -------------------------------------------------------------

  createWorkflow(name: string, options: CallOptions = {}): Promise<CreateWorkflowResponse> {
    return this.call({ method: "POST", route: "POST /api/v1/workflows", path: API, body: { name }, retry: "none", signal: options.signal });
  }

  saveVersion(workflowId: string, body: SaveVersionRequest, options: CallOptions = {}): Promise<SaveVersionResponse> {
    return this.call({ method: "POST", route: "POST /api/v1/workflows/{wf}/versions", path: `${API}/${segment(workflowId)}/versions`, body, retry: "none", signal: options.signal });
  }

  publish(workflowId: string, versionId: string, options: CallOptions = {}): Promise<PublishResponse> {
    return this.call({ method: "POST", route: "POST /api/v1/workflows/{wf}/versions/{version}/publish", path: `${API}/${segment(workflowId)}/versions/${segment(versionId)}/publish`, retry: "network", signal: options.signal });
  }

  // ---- runs ------------------------------------------------------------------------------

  /** Always sends an Idempotency-Key (the caller's or a new one, returned), so a retry cannot start a second run. */
  async startRun(workflowId: string, options: StartRunOptions = {}): Promise<StartedRun> {
    const idempotencyKey = options.idempotencyKey ?? this.newKey();
    let replayed = false;
    const body = await this.call<StartRunResponse>(
      {
        method: "POST",
        route: "POST /api/v1/workflows/{wf}/run",
        path: `${API}/${segment(workflowId)}/run`,
        body: options.question !== undefined ? { question: options.question } : {},
        headers: { "Idempotency-Key": idempotencyKey },
        retry: "network-and-usage",
        signal: options.signal,
      },
      (headers) => (replayed = headers.get("Idempotent-Replayed") === "true"),
    );
    return { ...body, idempotencyKey, replayed };
  }

  run(workflowId: string, runId: string, options: CallOptions = {}): Promise<Run> {
    return this.call({ method: "GET", route: "GET /api/v1/workflows/{wf}/runs/{run}", path: `${API}/${segment(workflowId)}/runs/${segment(runId)}`, retry: "network", signal: options.signal });
  }

  workflowRuns(workflowId: string, options: CallOptions = {}): Promise<RunListResponse> {
    return this.call({ method: "GET", route: "GET /api/v1/workflows/{wf}/runs", path: `${API}/${segment(workflowId)}/runs`, retry: "network", signal: options.signal });
  }

  runs(state: RunFilter = "all", options: CallOptions = {}): Promise<RunListResponse> {
    return this.call({ method: "GET", route: "GET /api/v1/workflows/runs", path: `${API}/runs?state=${segment(state)}`, retry: "network", signal: options.signal });
  }

  deliver(workflowId: string, runId: string, options: CallOptions = {}): Promise<RunChangeResponse> {
    return this.call({ method: "POST", route: "POST /api/v1/workflows/{wf}/runs/{run}/deliver", path: `${API}/${segment(workflowId)}/runs/${segment(runId)}/deliver`, retry: "none", signal: options.signal });
  }

  cancel(workflowId: string, runId: string, options: CallOptions = {}): Promise<RunChangeResponse> {
    return this.call({ method: "POST", route: "POST /api/v1/workflows/{wf}/runs/{run}/cancel", path: `${API}/${segment(workflowId)}/runs/${segment(runId)}/cancel`, retry: "none", signal: options.signal });
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

  private async call<T>(call: Call, onResponse?: (headers: Headers) => void): Promise<T> {
    const label = `${call.method} ${call.path}`;
    const retryable = (error: unknown) =>
      (error instanceof WorkflowsNetworkError && error.retryable && call.retry !== "none") || (error instanceof WorkflowsApiError && error.retryable && call.retry === "network-and-usage");
    const auth = this.options.credential ? bearerAuth(this.options.credential) : undefined;
    const shape = WORKFLOWS_SHAPES[call.route];
    const answer = await this.http.retrying(label, call.signal, retryable, (timeoutMs) =>
      this.http.exchange<T>(
        { method: call.method, path: call.path, body: call.body, headers: call.headers, auth, label, signal: call.signal, timeoutMs },
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
