/**
 * The service's refusals against the contract's error table: every refusal either API can
 * answer with is a row of @wfkit/api's `ERRORS`, with the row's status and code, exactly the
 * row's body fields (its optional ones at most) and its headers; every row is a refusal the
 * service makes; and the client reads each Workflows row back as the row's kind and
 * retryability.
 */
import { ERRORS, ERROR_BODY_BASE, kindOf, type ErrorRow } from "@wfkit/api";
import { WorkflowsApiError } from "@wfkit/client";
import type { Fault } from "@wfkit/core";
import { describe, expect, it } from "vitest";
import { ApiError, errors, SignalsError, signalsErrors } from "../src/index.js";

const FAULT: Fault = { code: "shape", severity: "error", message: "m", pointer: "/nodes", nodeId: null } as unknown as Fault;

/** Each factory with arguments it takes. */
const WORKFLOWS_CALLS: { [K in keyof typeof errors]: Parameters<(typeof errors)[K]> } = {
  validation: [[FAULT]],
  unauthenticated: ["No credential was sent"],
  planRequired: ["workflows_api", "browser"],
  allowanceExhausted: [220, 10],
  usageUnavailable: ["platform_unavailable"],
  insufficientScope: ["write:workflows"],
  gateRequired: [],
  noPublishedVersion: ["wf_1"],
  workflowsUnavailable: ["mars"],
  productNotAllowed: [],
  ipNotAllowed: ["10.0.0.1"],
  notOwner: ["run it"],
  badRequest: ["name must be a string", "/name"],
  malformedJson: ["Unexpected end"],
  tooDeeplyNested: [300],
  bodyTooLarge: [100],
  routeNotFound: ["GET", "/x"],
  methodNotAllowed: ["PUT", "/x", ["GET", "POST"]],
  anyaNotShown: ["GET", "/anya/x"],
  workflowNotFound: ["wf_1"],
  versionNotFound: ["ver_1"],
  runNotFound: ["run_1"],
  runNotHeld: ["run_1", "queued"],
  runFinished: ["run_1", "succeeded"],
  idempotencyKeyReused: [],
  unknownMockCase: ["x", ["default"]],
  userNotFound: ["usr_x"],
  accountNotFound: ["acct_x", ["acct_default"]],
  keyNotFound: ["key_x"],
  alertNotFound: ["alert_x"],
  adminForbidden: ["no"],
  storageFailed: ["disk full"],
  internal: [],
};

const SIGNALS_CALLS: { [K in keyof typeof signalsErrors]: Parameters<(typeof signalsErrors)[K]> } = {
  unauthenticated: ["jwt", "No credential was sent"],
  invalidParameter: ["geography", "no", "UK"],
  unknownParameter: ["geograpy", ["geography"], "geography"],
  validation: ["alert", [FAULT]],
  malformedJson: ["Unexpected end"],
  bodyTooLarge: [100],
  briefingNotFound: ["FR", ["US", "UK"]],
  sectorNotFound: ["x", ["grocery"]],
  viewNotFound: ["view_x"],
  routeNotFound: ["GET", "/signals/x"],
  methodNotAllowed: ["PUT", "/signals/api/views", ["GET", "POST"]],
  rateLimited: [5, { max: 10, windowSeconds: 60 }, { "Retry-After": "5", "X-RateLimit-Limit": "10", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1" }],
};

const rows = Object.entries(ERRORS) as [string, ErrorRow][];

function rowOf(api: ErrorRow["api"], status: number, code: string | null): [string, ErrorRow] {
  const found = rows.filter(([, row]) => row.api === api && row.status === status && row.code === code);
  expect(found.length, `${api} ${status} ${code}: one row`).toBe(1);
  return found[0]!;
}

function holdsToRow(row: ErrorRow, base: readonly string[], body: Record<string, unknown>, headers: Record<string, string>, label: string): void {
  const keys = Object.keys(body);
  for (const field of [...base, ...row.fields]) expect(keys, `${label} carries ${field}`).toContain(field);
  for (const key of keys) expect([...base, ...row.fields, ...(row.optional ?? [])], `${label}: ${key} is not a field of its row`).toContain(key);
  for (const header of row.headers ?? []) expect(Object.keys(headers), `${label} has the ${header} header`).toContain(header);
}

describe("the service's refusals are the contract's rows", () => {
  const made = new Set<string>();

  it("every Workflows refusal: its row's status, code, fields and headers", () => {
    for (const [name, args] of Object.entries(WORKFLOWS_CALLS)) {
      const error = (errors[name as keyof typeof errors] as (...a: unknown[]) => ApiError)(...args);
      expect(error, name).toBeInstanceOf(ApiError);
      const [rowName, row] = rowOf("workflows", error.status, error.body.error);
      made.add(rowName);
      holdsToRow(row, ERROR_BODY_BASE.workflows, error.body, error.headers, name);
    }
  });

  it("every Consumer Signals refusal: its row's status, code, fields and headers; the 429 is the reference's body exactly", () => {
    for (const [name, args] of Object.entries(SIGNALS_CALLS)) {
      const error = (signalsErrors[name as keyof typeof signalsErrors] as (...a: unknown[]) => SignalsError)(...args);
      expect(error, name).toBeInstanceOf(SignalsError);
      const [rowName, row] = rowOf("signals", error.status, error.body.code ?? null);
      made.add(rowName);
      holdsToRow(row, row.code === null ? ["ok", "error"] : ERROR_BODY_BASE.signals, error.body, error.headers, name);
    }
  });

  it("every row is a refusal the service makes", () => {
    expect(rows.map(([name]) => name).filter((name) => !made.has(name))).toEqual([]);
  });

  it("no two rows of one API share a status and code", () => {
    const seen = rows.map(([, row]) => `${row.api} ${row.status} ${row.code}`);
    expect(new Set(seen).size).toBe(seen.length);
  });
});

describe("the client reads each Workflows row back by the table", () => {
  it("its kind and whether a retry can help, from the status and code alone", () => {
    for (const [name, args] of Object.entries(WORKFLOWS_CALLS)) {
      const error = (errors[name as keyof typeof errors] as (...a: unknown[]) => ApiError)(...args);
      const [, row] = rowOf("workflows", error.status, error.body.error);
      const read = new WorkflowsApiError(error.status, error.body, "GET /x");
      expect([read.kind, read.retryable], name).toEqual([row.kind, row.retryable]);
      expect(kindOf(error.status, error.body.error)).toBe(row.kind);
    }
  });

  it("each row of the reference's table has a kind of its own; the service's own rows are `other`", () => {
    const reference = rows.filter(([, row]) => row.api === "workflows" && row.reference).map(([, row]) => row.kind);
    expect(new Set(reference).size).toBe(reference.length);
    expect(reference).not.toContain("other");
    for (const [name, row] of rows) if (row.api === "workflows" && !row.reference) expect(row.kind, name).toBe("other");
  });
});
