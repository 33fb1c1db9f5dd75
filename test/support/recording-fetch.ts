/**
 * A `fetch` that records every request on its way to a real answerer (the service's app
 * in-process, or a server on loopback), so a test can check what a client sent, with which
 * credential, and when: method, path under the base path, query, the two credential headers,
 * body, arrival time on the test's clock, and the answer's status and `Retry-After`. It can
 * also answer a GET of one path with a status a few times before passing it on (a fault to
 * test retries). It is no API of its own: every other answer is the answerer's.
 */

export interface RecordedRequest {
  method: string;
  /** The path under the base path (`/api/cpix`). */
  path: string;
  query: Record<string, string>;
  authorization: string | undefined;
  alertToken: string | undefined;
  /** The body as JSON, or as text when it is not JSON; undefined when there is none. */
  body: unknown;
  /** When it arrived, on the test's clock. */
  at: number;
  /** The answer's status (0 until answered). */
  status: number;
  /** A 429's `Retry-After`, seconds. */
  retryAfter?: number;
}

export interface FailReads {
  /** The path under the base path. */
  path: string;
  status: number;
  times: number;
}

export interface RecordingFetchOptions {
  /** The path the API is served under, which recorded paths leave out (`/signals`). */
  basePath: string;
  /** The test's clock (ms): each request's arrival time. */
  now: () => number;
  /** Answer every GET of this path with this status first, this many times. */
  failReads?: FailReads;
}

export interface RecordingFetch {
  fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  log: RecordedRequest[];
}

/** `answer` (a Request in, its Response out) behind a recording `fetch`. */
export function recordingFetch(answer: (request: Request) => Response | Promise<Response>, options: RecordingFetchOptions): RecordingFetch {
  const log: RecordedRequest[] = [];
  let failuresLeft = options.failReads?.times ?? 0;
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const at = options.now();
    const url = new URL(request.url);
    const text = request.body ? await request.clone().text() : "";
    const entry: RecordedRequest = {
      method: request.method,
      path: url.pathname.startsWith(options.basePath) ? url.pathname.slice(options.basePath.length) : url.pathname,
      query: Object.fromEntries(url.searchParams),
      authorization: request.headers.get("Authorization") ?? undefined,
      alertToken: request.headers.get("X-Alert-Token") ?? undefined,
      body: text ? parsed(text) : undefined,
      at,
      status: 0,
    };
    log.push(entry);
    const fault = options.failReads;
    if (fault && request.method === "GET" && entry.path === fault.path && failuresLeft > 0) {
      failuresLeft--;
      entry.status = fault.status;
      return Response.json({ ok: false, error: `Answered ${fault.status} by the test, before the service.` }, { status: fault.status });
    }
    const response = await answer(request);
    entry.status = response.status;
    const retryAfter = response.headers.get("Retry-After");
    if (retryAfter !== null) entry.retryAfter = Number(retryAfter);
    return response;
  };
  return { fetch, log };
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
