/**
 * What a successful answer of each endpoint must look like, by route: the guards of @wfkit/api's
 * route tables (each route names its answer's guard there), gathered per API for the
 * transport (`http.ts`), which checks every 2xx answer against its route's shape before a
 * client returns it. The guard combinators are re-exported for the few shapes outside the
 * two APIs' tables.
 */
import { shapes, SIGNALS_ROUTES, WORKFLOWS_ROUTES, type Guard, type RouteSpec } from "@wfkit/api";

export const { anything, str, num, bool, present, oneOf, nullable, arrayOf, object, recordOf, fault } = shapes;
export { describeMismatch, type Guard, type Mismatch } from "@wfkit/api";

/** The routes of a table whose answer is checked (an event stream's is not), each with its guard. */
type Checked<T extends Record<string, RouteSpec>> = { [K in keyof T as T[K]["answer"] extends null ? never : K]: Guard };

function answersOf<T extends Record<string, RouteSpec>>(table: T): Checked<T> {
  return Object.fromEntries(Object.entries(table).flatMap(([route, spec]) => (spec.answer ? [[route, spec.answer]] : []))) as Checked<T>;
}

export const WORKFLOWS_SHAPES = answersOf(WORKFLOWS_ROUTES);
export type WorkflowsRoute = keyof typeof WORKFLOWS_SHAPES;

export const SIGNALS_SHAPES = answersOf(SIGNALS_ROUTES);
export type SignalsRoute = keyof typeof SIGNALS_SHAPES;
