/**
 * The Consumer Signals API's HTTP face, under `SIGNALS_BASE_PATH` on the same app (and port)
 * as the Workflows API. Every route is listed once in `SIGNALS_ROUTES` with the credential it
 * takes, from the reference's Auth column: `jwt` (data), `alert_token` (alerts and views) or
 * `ai` (a JWT, then the shared limit of the AI endpoints).
 */
import { Suggester } from "@wfkit/core";
import type { Context, Hono } from "hono";
import { clientIp, readJson } from "../request.js";
import type { WorkflowsService } from "../service.js";
import { signalsErrors } from "./errors.js";
import { DEFAULT_GEOGRAPHY, HISTORY_DEFAULT_FROM, MAX_PERIODS, SAMPLE_DATA_HEADER, SIGNALS_BASE_PATH } from "./policy.js";
import * as sample from "./sample.js";
import type { SignalsCaller } from "./service.js";
import { aiAnswer, aiEventStream } from "./ai-stub.js";
import type { Geography } from "./types.js";

export type SignalsAccess = "jwt" | "alert_token" | "ai";

export interface SignalsRoute {
  method: "GET" | "POST" | "DELETE";
  /** The path under `{signals_base_url}`, as the reference writes it. */
  path: string;
  access: SignalsAccess;
  handle: (c: Context, caller: SignalsCaller, service: WorkflowsService) => Response | Promise<Response>;
}

const GEOGRAPHIES: readonly Geography[] = ["US", "UK"];
const suggester = new Suggester();

/** The query, with every parameter known to the route and given once; anything else is a 400. */
function query(c: Context, known: readonly string[]): Record<string, string | undefined> {
  const given = c.req.queries();
  const values: Record<string, string | undefined> = {};
  for (const [name, list] of Object.entries(given)) {
    if (!known.includes(name)) throw signalsErrors.unknownParameter(name, known, suggester.closest(name, known));
    if (list.length > 1) throw signalsErrors.invalidParameter(name, `\`${name}\` is given ${list.length} times; give it once.`);
    values[name] = list[0];
  }
  return values;
}

/** `geography`: `US` or `UK`; `fallback` when absent, or required when there is none. */
function geography(value: string | undefined, fallback: Geography | undefined, allowed: readonly Geography[] = GEOGRAPHIES): Geography {
  if (value === undefined) {
    if (fallback) return fallback;
    throw signalsErrors.invalidParameter("geography", `\`geography\` is required here; give ${allowed.map((g) => `\`${g}\``).join(" or ")}.`);
  }
  if ((allowed as readonly string[]).includes(value)) return value as Geography;
  const upper = value.toUpperCase();
  const suggestion = (allowed as readonly string[]).includes(upper) ? upper : upper === "GB" && allowed.includes("UK") ? "UK" : undefined;
  const only = allowed.length === 1 ? `only \`${allowed[0]}\` is supported here` : `it must be ${allowed.map((g) => `\`${g}\``).join(" or ")}`;
  throw signalsErrors.invalidParameter("geography", `\`geography\` is "${value}", but ${only}${suggestion ? `; did you mean \`${suggestion}\`?` : "."}`, suggestion);
}

/** A calendar date written YYYY-MM-DD. */
function date(name: string, value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const valid = match && sample.dateOf(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) === value;
  if (!valid) throw signalsErrors.invalidParameter(name, `\`${name}\` is "${value}", which is not a date written YYYY-MM-DD (for example 2024-06-30).`);
  return value;
}

const json = (c: Context, body: unknown, status: 200 | 201 = 200) => c.json(body as object, status);
/** A data answer: marked as the sample data set. */
const data = (c: Context, body: unknown) => {
  c.header(SAMPLE_DATA_HEADER, "true");
  return json(c, body);
};

/** A route without query parameters: its answer, sent by `respond`. */
const noQuery =
  (answer: (caller: SignalsCaller, service: WorkflowsService) => unknown, respond: (c: Context, body: unknown) => Response = json): SignalsRoute["handle"] =>
  (c, caller, service) => {
    query(c, []);
    return respond(c, answer(caller, service));
  };

export const SIGNALS_ROUTES: readonly SignalsRoute[] = [
  {
    method: "GET",
    path: "/api/signals",
    access: "jwt",
    handle: (c, caller) => {
      const q = query(c, ["geography", "severity", "category", "periods"]);
      const severities = ["high", "medium", "low"];
      if (q.severity !== undefined && !severities.includes(q.severity))
        throw signalsErrors.invalidParameter("severity", `\`severity\` is "${q.severity}", but it must be \`high\`, \`medium\` or \`low\`.`, suggester.closest(q.severity.toLowerCase(), severities));
      let periods = 1;
      if (q.periods !== undefined) {
        periods = Number(q.periods);
        if (!/^\d+$/.test(q.periods) || periods < 1 || periods > MAX_PERIODS)
          throw signalsErrors.invalidParameter("periods", `\`periods\` is "${q.periods}", but it must be a whole number of recent weekly periods from 1 to ${MAX_PERIODS}.`);
      }
      return data(
        c,
        sample.signals({
          geography: geography(q.geography, DEFAULT_GEOGRAPHY),
          ...(q.severity !== undefined ? { severity: q.severity } : {}),
          ...(q.category !== undefined ? { category: q.category } : {}),
          periods,
          detail: caller.detail,
        }),
      );
    },
  },
  {
    method: "GET",
    path: "/api/cpix",
    access: "jwt",
    handle: (c) => data(c, sample.cpix(geography(query(c, ["geography"]).geography, DEFAULT_GEOGRAPHY))),
  },
  {
    method: "GET",
    path: "/api/history",
    access: "jwt",
    handle: (c, _caller, service) => {
      const q = query(c, ["geography", "from", "to"]);
      const from = date("from", q.from ?? HISTORY_DEFAULT_FROM);
      const to = date("to", q.to ?? sample.dateOf(service.clock.now()));
      if (from > to) throw signalsErrors.invalidParameter("from", `\`from\` (${from}) is after \`to\` (${to}); give a range from the earlier date to the later one.`);
      return data(c, sample.history(geography(q.geography, DEFAULT_GEOGRAPHY), from, to));
    },
  },
  {
    method: "GET",
    path: "/api/signals/accuracy",
    access: "jwt",
    handle: noQuery(() => sample.accuracy(), data),
  },
  {
    method: "GET",
    path: "/api/briefing/latest",
    access: "jwt",
    handle: (c) => {
      const value = query(c, ["geography"]).geography;
      // Any country code is a question the API can be asked; the sample data answers two.
      if (value !== undefined && /^[A-Z]{2}$/.test(value) && !sample.BRIEFING_GEOGRAPHIES.includes(value)) throw signalsErrors.briefingNotFound(value, sample.BRIEFING_GEOGRAPHIES);
      return data(c, sample.briefing(geography(value, undefined))!);
    },
  },
  {
    method: "GET",
    path: "/api/sectors/:sectorId/import-pressure",
    access: "jwt",
    handle: (c) => {
      geography(query(c, ["geography"]).geography, undefined, ["UK"]);
      const sectorId = c.req.param("sectorId")!;
      const analysis = sample.importPressure(sectorId);
      if (!analysis) throw signalsErrors.sectorNotFound(sectorId, sample.IMPORT_PRESSURE_SECTORS);
      return data(c, analysis);
    },
  },
  {
    method: "GET",
    path: "/api/census-marts",
    access: "jwt",
    handle: (c) => {
      const chosen = geography(query(c, ["geography"]).geography, "US", ["US"]);
      return data(c, { geography: chosen, series: sample.census(), lastUpdated: sample.SAMPLE_AS_OF });
    },
  },
  {
    method: "GET",
    path: "/api/housing",
    access: "jwt",
    handle: noQuery(() => ({ housing: sample.housing() }), data),
  },
  {
    method: "GET",
    path: "/api/macro",
    access: "jwt",
    handle: noQuery(() => ({ macro: sample.macro() }), data),
  },
  {
    method: "GET",
    path: "/api/alerts",
    access: "alert_token",
    handle: noQuery((caller, service) => service.signals.alerts(caller.userId)),
  },
  {
    method: "POST",
    path: "/api/alerts",
    access: "alert_token",
    handle: async (c, caller, service) => json(c, service.signals.createAlert(caller.userId, await readJson(c)), 201),
  },
  {
    method: "GET",
    path: "/api/views",
    access: "alert_token",
    handle: noQuery((caller, service) => service.signals.views(caller.userId)),
  },
  {
    method: "POST",
    path: "/api/views",
    access: "alert_token",
    handle: async (c, caller, service) => json(c, service.signals.createView(caller.userId, await readJson(c)), 201),
  },
  {
    method: "DELETE",
    path: "/api/views/:id",
    access: "alert_token",
    handle: (c, caller, service) => {
      service.signals.deleteView(caller.userId, c.req.param("id")!);
      return c.body(null, 204);
    },
  },
  {
    method: "POST",
    path: "/api/investigate",
    access: "ai",
    handle: async (c) => data(c, aiAnswer("investigate", await readJson(c, {}))),
  },
  {
    method: "POST",
    path: "/api/investigate/stream",
    access: "ai",
    handle: async (c) => {
      const stream = aiEventStream(aiAnswer("investigate/stream", await readJson(c, {})));
      c.header(SAMPLE_DATA_HEADER, "true");
      c.header("Content-Type", "text/event-stream; charset=utf-8");
      c.header("Cache-Control", "no-cache");
      return c.body(stream);
    },
  },
  {
    method: "POST",
    path: "/api/analyze",
    access: "ai",
    handle: async (c) => data(c, aiAnswer("analyze", await readJson(c, {}))),
  },
];

/** Who is calling, by the route's credential; an AI route also takes one request from the user's limit. */
function authorize(c: Context, route: SignalsRoute, service: WorkflowsService): SignalsCaller {
  if (route.access === "alert_token") return service.signals.alertTokenCaller(c.req.header("X-Alert-Token"));
  const caller = service.signals.jwtCaller(c.req.header("Authorization"), clientIp(c));
  if (route.access === "ai") {
    const decision = service.signals.limiter.take(caller.userId);
    if (!decision.allowed) {
      const { max, windowMs } = service.signals.limiter.limit;
      throw signalsErrors.rateLimited(decision.retryAfterSeconds, { max, windowSeconds: windowMs / 1000 }, decision.headers);
    }
    for (const [name, value] of Object.entries(decision.headers)) c.header(name, value);
  }
  return caller;
}

export function signalsRoutes(app: Hono, service: WorkflowsService): void {
  for (const route of SIGNALS_ROUTES)
    app.on(route.method, SIGNALS_BASE_PATH + route.path, (c) => route.handle(c, authorize(c, route, service), service));
}

/** Whether a path is the Consumer Signals API's (its refusals take that API's shape). */
export function isSignalsPath(path: string): boolean {
  return path === SIGNALS_BASE_PATH || path.startsWith(`${SIGNALS_BASE_PATH}/`);
}
