/**
 * The Consumer Signals API's HTTP face: a Hono sub-app the app mounts at `SIGNALS_BASE_PATH`,
 * on the same port as the Workflows API. Each route answers a row of @wfkit/api's
 * `SIGNALS_ROUTES`, whose credential it is registered behind (`jwt` for data, `alert_token`
 * for alerts and views, `jwt+ai_limit` for the AI endpoints: a JWT, then the shared limit) and
 * whose parameter rules (`SIGNALS_PARAMS`) its query is checked by. Every refusal under the
 * base path takes this API's shape, including those of code the two APIs share (body
 * reading, storage).
 */
import { isCalendarDate, integerAllowed, SIGNALS_ROUTES as CONTRACT, type Geography, type ParamRule, type SignalsRoute as RouteKey } from "@wfkit/api";
import { Suggester } from "@wfkit/core";
import type { Context, Hono } from "hono";
import { apiApp, honoRoute, logInternal, type RouteHandler, type ServiceContext, type ServiceEnv } from "../api-app.js";
import { ApiError, errors } from "../errors.js";
import { routeJson } from "../request.js";
import type { WorkflowsService } from "../service.js";
import { aiAnswer, aiEventStream } from "./ai-stub.js";
import { SignalsError, asSignalsBody, signalsErrors } from "./errors.js";
import { SAMPLE_DATA_HEADER, SIGNALS_BASE_PATH } from "./policy.js";
import * as sample from "./sample.js";

export type SignalsAccess = "jwt" | "alert_token" | "ai";

export interface SignalsRoute {
  method: "GET" | "POST" | "DELETE";
  /** The path under `{signals_base_url}`, as Hono writes it (`/api/views/:id`). */
  path: string;
  /** The credential it takes (its row's `auth` in the contract; `ai` is a JWT and the shared limit). */
  access: SignalsAccess;
  handle: RouteHandler;
}

const suggester = new Suggester();

/** `a`, `a` or `b`, `a`, `b` or `c`: a list of values as a message says them. */
function either(values: readonly string[]): string {
  const quoted = values.map((value) => `\`${value}\``);
  return quoted.length > 1 ? `${quoted.slice(0, -1).join(", ")} or ${quoted[quoted.length - 1]}` : (quoted[0] ?? "");
}

/** The query, with every parameter its row in the contract names given once; anything else is a 400. */
function query(c: ServiceContext): Record<string, string | undefined> {
  const known = Object.keys(c.var.route.query);
  const values: Record<string, string | undefined> = {};
  for (const [name, list] of Object.entries(c.req.queries())) {
    if (!known.includes(name)) throw signalsErrors.unknownParameter(name, known, suggester.closest(name, known));
    if (list.length > 1) throw signalsErrors.invalidParameter(name, `\`${name}\` is given ${list.length} times; give it once.`);
    values[name] = list[0];
  }
  return values;
}

/** A `geography` by its rule: one of its enumeration; its default when absent, or required when it has none. */
function geography(value: string | undefined, rule: ParamRule): Geography {
  const allowed = rule.enumeration as readonly Geography[];
  if (value === undefined) {
    if (rule.default !== undefined) return rule.default as Geography;
    throw signalsErrors.invalidParameter("geography", `\`geography\` is required here; give ${either(allowed)}.`);
  }
  if ((allowed as readonly string[]).includes(value)) return value as Geography;
  const upper = value.toUpperCase();
  const suggestion = (allowed as readonly string[]).includes(upper) ? upper : upper === "GB" && allowed.includes("UK") ? "UK" : undefined;
  const only = allowed.length === 1 ? `only \`${allowed[0]}\` is supported here` : `it must be ${either(allowed)}`;
  throw signalsErrors.invalidParameter("geography", `\`geography\` is "${value}", but ${only}${suggestion ? `; did you mean \`${suggestion}\`?` : "."}`, suggestion);
}

/** A calendar date written YYYY-MM-DD. */
function date(name: string, value: string): string {
  if (!isCalendarDate(value)) throw signalsErrors.invalidParameter(name, `\`${name}\` is "${value}", which is not a date written YYYY-MM-DD (for example 2024-06-30).`);
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
  (answer: (c: ServiceContext) => unknown, respond: (c: Context, body: unknown) => Response = json): RouteHandler =>
  (c) => {
    query(c);
    return respond(c, answer(c));
  };

/** The parameter rules of a route's query, from its row. */
const rules = <K extends RouteKey>(key: K): (typeof CONTRACT)[K]["query"] => CONTRACT[key].query;

/** Each route of the contract's Consumer Signals table, answered. */
const HANDLERS = {
  "GET /api/signals": (c) => {
    const q = query(c);
    const rule = rules("GET /api/signals");
    const severities = rule.severity.enumeration as readonly string[];
    if (q.severity !== undefined && !severities.includes(q.severity))
      throw signalsErrors.invalidParameter("severity", `\`severity\` is "${q.severity}", but it must be ${either(severities)}.`, suggester.closest(q.severity.toLowerCase(), severities));
    let periods: number = rule.periods.default;
    if (q.periods !== undefined) {
      periods = Number(q.periods);
      if (!integerAllowed(rule.periods, q.periods, "service"))
        throw signalsErrors.invalidParameter("periods", `\`periods\` is "${q.periods}", but it must be a whole number of recent weekly periods from ${rule.periods.minimum} to ${rule.periods.serviceMaximum}.`);
    }
    return data(
      c,
      sample.signals({
        geography: geography(q.geography, rule.geography),
        ...(q.severity !== undefined ? { severity: q.severity } : {}),
        ...(q.category !== undefined ? { category: q.category } : {}),
        periods,
        detail: c.var.signalsCaller.detail,
      }),
    );
  },
  "GET /api/cpix": (c) => data(c, sample.cpix(geography(query(c).geography, rules("GET /api/cpix").geography))),
  "GET /api/history": (c) => {
    const q = query(c);
    const rule = rules("GET /api/history");
    const from = date("from", q.from ?? rule.from.default);
    const to = date("to", q.to ?? sample.dateOf(c.var.service.clock.now()));
    if (from > to) throw signalsErrors.invalidParameter("from", `\`from\` (${from}) is after \`to\` (${to}); give a range from the earlier date to the later one.`);
    return data(c, sample.history(geography(q.geography, rule.geography), from, to));
  },
  "GET /api/signals/accuracy": noQuery(() => sample.accuracy(), data),
  "GET /api/briefing/latest": (c) => {
    const value = query(c).geography;
    // Any country code is a question the API can be asked; the sample data answers two.
    if (value !== undefined && /^[A-Z]{2}$/.test(value) && !sample.BRIEFING_GEOGRAPHIES.includes(value)) throw signalsErrors.briefingNotFound(value, sample.BRIEFING_GEOGRAPHIES);
    return data(c, sample.briefing(geography(value, rules("GET /api/briefing/latest").geography))!);
  },
  "GET /api/sectors/{sectorId}/import-pressure": (c) => {
    geography(query(c).geography, rules("GET /api/sectors/{sectorId}/import-pressure").geography);
    const sectorId = c.req.param("sectorId")!;
    const analysis = sample.importPressure(sectorId);
    if (!analysis) throw signalsErrors.sectorNotFound(sectorId, sample.IMPORT_PRESSURE_SECTORS);
    return data(c, analysis);
  },
  "GET /api/census-marts": (c) => {
    const chosen = geography(query(c).geography, rules("GET /api/census-marts").geography);
    return data(c, { geography: chosen, series: sample.census(), lastUpdated: sample.SAMPLE_AS_OF });
  },
  "GET /api/housing": noQuery(() => ({ housing: sample.housing() }), data),
  "GET /api/macro": noQuery(() => ({ macro: sample.macro() }), data),
  "GET /api/alerts": noQuery((c) => c.var.service.signals.alerts(c.var.signalsCaller.userId)),
  "POST /api/alerts": async (c) => json(c, c.var.service.signals.createAlert(c.var.signalsCaller.userId, await routeJson(c)), 201),
  "GET /api/views": noQuery((c) => c.var.service.signals.views(c.var.signalsCaller.userId)),
  "POST /api/views": async (c) => json(c, c.var.service.signals.createView(c.var.signalsCaller.userId, await routeJson(c)), 201),
  "DELETE /api/views/{id}": (c) => {
    c.var.service.signals.deleteView(c.var.signalsCaller.userId, c.req.param("id")!);
    return c.body(null, 204);
  },
  "POST /api/investigate": async (c) => data(c, aiAnswer("investigate", await routeJson(c))),
  "POST /api/investigate/stream": async (c) => {
    const stream = aiEventStream(aiAnswer("investigate/stream", await routeJson(c)));
    c.header(SAMPLE_DATA_HEADER, "true");
    c.header("Content-Type", "text/event-stream; charset=utf-8");
    c.header("Cache-Control", "no-cache");
    return c.body(stream);
  },
  "POST /api/analyze": async (c) => data(c, aiAnswer("analyze", await routeJson(c))),
} satisfies Record<RouteKey, RouteHandler>;

const ACCESS = { jwt: "jwt", "jwt+ai_limit": "ai", alert_token: "alert_token" } as const;

/** Every route of the Consumer Signals API, as the sub-app registers it (paths under `SIGNALS_BASE_PATH`). */
export const SIGNALS_ROUTES: SignalsRoute[] = Object.entries(HANDLERS).map(([key, handle]) => ({
  ...(honoRoute(key, "") as { method: SignalsRoute["method"]; path: string }),
  access: ACCESS[CONTRACT[key as RouteKey].auth],
  handle: handle as RouteHandler,
}));

/** A refusal in this API's shape (`{ok: false, error, code, ...}`), whether this API's own or one of the code the two APIs share. */
function renderSignals(c: Context, error: unknown): Response {
  if (error instanceof SignalsError) return c.json(error.body, error.status, error.headers);
  if (error instanceof ApiError) return c.json(asSignalsBody(error.body), error.status, error.headers);
  logInternal(c, error);
  const internal = errors.internal();
  return c.json(asSignalsBody(internal.body), internal.status);
}

export function signalsApp(service: WorkflowsService): Hono<ServiceEnv> {
  return apiApp({
    service,
    table: CONTRACT,
    base: SIGNALS_BASE_PATH,
    tableBase: SIGNALS_BASE_PATH,
    routes: SIGNALS_ROUTES.map((route) => ({ ...route, path: SIGNALS_BASE_PATH + route.path })),
    render: renderSignals,
    unmatched: signalsErrors,
  });
}
