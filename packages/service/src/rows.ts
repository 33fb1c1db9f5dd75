/**
 * Reading typed values out of the store's rows: the one place a column's SQL value becomes a
 * field of a typed record. Each table's mapper (`accountOf` here, the run tables' in
 * run-rows.ts, the signals tables' in signals/service.ts) reads its columns through these, so a
 * column that does not hold what the schema says is an error naming it, never a silent
 * `String(null)` or `Number("")`.
 */
import type { Row } from "./store.js";

/** A row whose column does not hold what its table's schema says: a bug or a damaged database. */
export class RowShapeError extends Error {}

function shapeError(column: string, wanted: string, value: unknown): RowShapeError {
  return new RowShapeError(`column ${column} holds ${value === null ? "NULL" : typeof value} where ${wanted} was expected`);
}

export function text(row: Row, column: string): string {
  const value = row[column];
  if (typeof value !== "string") throw shapeError(column, "text", value);
  return value;
}

export function optionalText(row: Row, column: string): string | null {
  const value = row[column];
  if (value === null || value === undefined) return null;
  if (typeof value !== "string") throw shapeError(column, "text or NULL", value);
  return value;
}

export function integer(row: Row, column: string): number {
  const value = row[column];
  if (typeof value !== "number") throw shapeError(column, "a number", value);
  return value;
}

export function optionalInteger(row: Row, column: string): number | null {
  const value = row[column];
  if (value === null || value === undefined) return null;
  if (typeof value !== "number") throw shapeError(column, "a number or NULL", value);
  return value;
}

/** A REAL (or INTEGER) column that may be NULL. */
export function optionalNumber(row: Row, column: string): number | null {
  return optionalInteger(row, column);
}

/** An INTEGER column used as a flag (0 or 1). */
export function flag(row: Row, column: string): boolean {
  return integer(row, column) === 1;
}

/** A TEXT column holding JSON, parsed. Call it only for what the answer returns. */
export function json<T>(row: Row, column: string): T {
  return JSON.parse(text(row, column)) as T;
}

/**
 * `new Date(ms).toISOString()`, without a Date for each call: a run list answers three times a
 * run. The day's part is made once a day (by Date) and kept, the time of day by arithmetic;
 * outside 1970-9999 or for a fraction of a millisecond, Date does it all.
 */
export function isoTime(ms: number): string {
  if (!(ms >= 0 && ms < 253_402_300_800_000) || !Number.isInteger(ms)) return new Date(ms).toISOString();
  let rest = ms % 86_400_000;
  const day = ms - rest;
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    if (dayPrefixes.size >= 1024) dayPrefixes.clear();
    prefix = new Date(day).toISOString().slice(0, 11);
    dayPrefixes.set(day, prefix);
  }
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const millis = rest - seconds * 1000;
  return prefix + pad2(hours) + ":" + pad2(minutes) + ":" + pad2(seconds) + (millis < 10 ? ".00" : millis < 100 ? ".0" : ".") + millis + "Z";
}

/** `YYYY-MM-DDT` by the day's first millisecond. */
const dayPrefixes = new Map<number, string>();
const pad2 = (n: number) => (n < 10 ? "0" + n : "" + n);

// ---- accounts and users ---------------------------------------------------------------------

export interface Account {
  id: string;
  plan: string;
  region: string;
  acceptanceOutstanding: boolean;
  allowanceMinorUnits: number;
  usedMinorUnits: number;
  /** Entitlements beyond the plan's features (`anya`). */
  entitlements: string[];
}

export interface User {
  id: string;
  accountId: string;
  organisationId: string | null;
}

export const ACCOUNT_COLUMNS = "id, plan, region, acceptance_outstanding, allowance_minor_units, used_minor_units, entitlements";

/** An `accounts` row (ACCOUNT_COLUMNS). */
export function accountOf(row: Row): Account {
  return {
    id: text(row, "id"),
    plan: text(row, "plan"),
    region: text(row, "region"),
    acceptanceOutstanding: flag(row, "acceptance_outstanding"),
    allowanceMinorUnits: integer(row, "allowance_minor_units"),
    usedMinorUnits: integer(row, "used_minor_units"),
    entitlements: json<string[]>(row, "entitlements"),
  };
}

/** A `users` row (id, account_id, organisation_id). */
export function userOf(row: Row): User {
  return { id: text(row, "id"), accountId: text(row, "account_id"), organisationId: optionalText(row, "organisation_id") };
}
