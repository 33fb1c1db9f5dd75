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
 * - Nothing else: a 4xx is the service's final word.
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
import { errorBodyOf, WorkflowsAbortError, WorkflowsApiError, WorkflowsNetworkError } from "./errors.js";
import { DEFAULT_RETRY, realTiming, withRetries, type RetryPolicy, type Timing } from "./retry.js";
import { causeOf, redactSecrets } from "./transport.js";

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

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
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  retry: Retry;
  signal?: AbortSignal | undefined;
}

const API = "/api/v1/workflows";
const segment = (id: string) => encodeURIComponent(id);

export class WorkflowsClient {
  private readonly baseUrl: string;
  private readonly fetcher: FetchLike;
  private readonly policy: RetryPolicy;
  private readonly timing: Timing;

  constructor(private readonly options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.fetcher = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.policy = { ...DEFAULT_RETRY, ...options.retry };
    this.timing = { ...realTiming, ...options.timing };
  }

  // ---- catalogue ----------------------------------------------------------------------

  parts(options: CallOptions & { unattendedSafe?: boolean } = {}): Promise<PartsResponse> {
    return this.call({ method: "GET", path: `${API}/catalogue/parts${options.unattendedSafe ? "?unattendedSafe=1" : ""}`, retry: "network", signal: options.signal });
  }

  resolveSubjects(hints: string[], options: CallOptions = {}): Promise<ResolveSubjectsResponse> {
    return this.call({ method: "POST", path: `${API}/catalogue/resolve-subjects`, body: { hints }, retry: "network", signal: options.signal });
  }

  /** Valid: the estimate and warnings. Invalid: throws a `validation_failed` error with every fault. */
  validateDefinition(definition: unknown, options: CallOptions = {}): Promise<ValidateDefinitionResponse> {
    return this.call({ method: "POST", path: `${API}/catalogue/validate-definition`, body: { definition }, retry: "network", signal: options.signal });
  }

  templates(options: CallOptions = {}): Promise<Template[]> {
    return this.call({ method: "GET", path: `${API}/templates`, retry: "network", signal: options.signal });
  }

  // ---- workflows and versions -------------------------------------------------------------

  createWorkflow(name: string, options: CallOptions = {}): Promise<CreateWorkflowResponse> {
    return this.call({ method: "POST", path: API, body: { name }, retry: "none", signal: options.signal });
  }

  saveVersion(workflowId: string, body: SaveVersionRequest, options: CallOptions = {}): Promise<SaveVersionResponse> {
    return this.call({ method: "POST", path: `${API}/${segment(workflowId)}/versions`, body, retry: "none", signal: options.signal });
  }

  publish(workflowId: string, versionId: string, options: CallOptions = {}): Promise<PublishResponse> {
    return this.call({ method: "POST", path: `${API}/${segment(workflowId)}/versions/${segment(versionId)}/publish`, retry: "network", signal: options.signal });
  }

  // ---- runs ------------------------------------------------------------------------------

  /** Always sends an Idempotency-Key (the caller's or a new one, returned), so a retry cannot start a second run. */
  async startRun(workflowId: string, options: StartRunOptions = {}): Promise<StartedRun> {
    const idempotencyKey = options.idempotencyKey ?? this.newKey();
    let replayed = false;
    const body = await this.call<StartRunResponse>(
      {
        method: "POST",
        path: `${API}/${segment(workflowId)}/run`,
        body: options.question !== undefined ? { question: options.question } : {},
        headers: { "Idempotency-Key": idempotencyKey },
        retry: "network-and-usage",
        signal: options.signal,
      },
      (response) => (replayed = response.headers.get("Idempotent-Replayed") === "true"),
    );
    return { ...body, idempotencyKey, replayed };
  }

  run(workflowId: string, runId: string, options: CallOptions = {}): Promise<Run> {
    return this.call({ method: "GET", path: `${API}/${segment(workflowId)}/runs/${segment(runId)}`, retry: "network", signal: options.signal });
  }

  workflowRuns(workflowId: string, options: CallOptions = {}): Promise<RunListResponse> {
    return this.call({ method: "GET", path: `${API}/${segment(workflowId)}/runs`, retry: "network", signal: options.signal });
  }

  runs(state: RunFilter = "all", options: CallOptions = {}): Promise<RunListResponse> {
    return this.call({ method: "GET", path: `${API}/runs?state=${segment(state)}`, retry: "network", signal: options.signal });
  }

  deliver(workflowId: string, runId: string, options: CallOptions = {}): Promise<RunChangeResponse> {
    return this.call({ method: "POST", path: `${API}/${segment(workflowId)}/runs/${segment(runId)}/deliver`, retry: "none", signal: options.signal });
  }

  cancel(workflowId: string, runId: string, options: CallOptions = {}): Promise<RunChangeResponse> {
    return this.call({ method: "POST", path: `${API}/${segment(workflowId)}/runs/${segment(runId)}/cancel`, retry: "none", signal: options.signal });
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

  private async call<T>(call: Call, onResponse?: (response: Response) => void): Promise<T> {
    const label = `${call.method} ${call.path}`;
    const retryable = (error: unknown) =>
      (error instanceof WorkflowsNetworkError && call.retry !== "none") || (error instanceof WorkflowsApiError && error.retryable && call.retry === "network-and-usage");
    return withRetries(
      () => this.once<T>(call, label, onResponse),
      retryable,
      this.policy,
      this.timing,
      call.signal,
      (error, delay, attempt) => this.debug(`retry ${attempt} of ${label} in ${delay} ms after ${error instanceof Error ? error.message : String(error)}`),
    );
  }

  private async once<T>(call: Call, label: string, onResponse?: (response: Response) => void): Promise<T> {
    const headers: Record<string, string> = { Accept: "application/json", ...this.options.headers, ...call.headers };
    if (call.body !== undefined) headers["Content-Type"] = "application/json";
    this.debug(`→ ${label} ${JSON.stringify(headers)}`);
    if (this.options.credential) headers.Authorization = `Bearer ${this.options.credential}`;
    let response: Response;
    let text: string;
    try {
      response = await this.fetcher(this.baseUrl + call.path, {
        method: call.method,
        headers,
        ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
        ...(call.signal ? { signal: call.signal } : {}),
      });
      text = await response.text();
    } catch (error) {
      if (call.signal?.aborted) throw new WorkflowsAbortError("aborted");
      throw new WorkflowsNetworkError(`no answer from ${this.baseUrl} to ${label}: ${this.redact(causeOf(error))}`, label);
    }
    this.debug(`← ${response.status} ${label}`);
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      if (response.ok) throw new WorkflowsNetworkError(`${label} answered ${response.status} with a body that is not JSON; is ${this.baseUrl} a Workflows API?`, label);
    }
    if (!response.ok) throw new WorkflowsApiError(response.status, errorBodyOf(response.status, json) satisfies ErrorBody, label);
    onResponse?.(response);
    return json as T;
  }

  private debug(line: string): void {
    this.options.debug?.(this.redact(line));
  }

  /** Text that might quote the credential (a proxy's error, a debug line) never carries it. */
  redact(text: string): string {
    return redactSecrets(text, [this.options.credential]);
  }
}
