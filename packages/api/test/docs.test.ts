/**
 * The docs' tables against the contract: docs/signals.md's table of refusals lists exactly the
 * Consumer Signals rows of the error table (with their statuses), and docs/service.md's
 * table of the admin surface lists exactly the admin routes, with the members each body takes.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ADMIN_BASE_PATH, ADMIN_ROUTES, ERRORS, splitRoute, type ErrorRow } from "../src/index.js";

const docs = (name: string) => readFileSync(fileURLToPath(new URL(`../../../docs/${name}`, import.meta.url)), "utf8");

/** The rows of the first markdown table after `heading` whose header starts with `header`, as cells. */
function table(text: string, heading: string, header: string): string[][] {
  const lines = text.slice(text.indexOf(heading)).split("\n");
  const start = lines.findIndex((line) => line.startsWith(`| ${header}`));
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(line.split(/(?<!\\)\|/).slice(1, -1).map((cell) => cell.trim()));
  }
  return rows;
}

const codes = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);

describe("docs/signals.md's refusals are the error table's", () => {
  it("every Consumer Signals row, and only those (with the shared code's invalid_request), at its status", () => {
    const documented = table(docs("signals.md"), "### Refusals", "Status").flatMap(([status, code]) => {
      const named = codes(code!);
      return (named.length ? named : [null]).map((name) => `${status} ${name}`);
    });
    const rows = (Object.values(ERRORS) as ErrorRow[]).filter((row) => row.api === "signals").map((row) => `${row.status} ${row.code}`);
    expect(documented.sort()).toEqual([...rows, `${ERRORS.invalidRequest.status} ${ERRORS.invalidRequest.code}`].sort());
  });
});

describe("docs/service.md's admin surface is the admin route table", () => {
  const rows = table(docs("service.md"), "## Admin surface", "Method and path");
  /** `POST /__admin/accounts/{id}` → `POST /accounts/{}`: parameter names are the docs' own. */
  const shape = (route: string) => route.replace(ADMIN_BASE_PATH, "").replace(/\{[A-Za-z]+\}/g, "{}");

  it("every route, and only those", () => {
    expect(rows.map(([route]) => shape(codes(route!)[0]!)).sort()).toEqual(Object.keys(ADMIN_ROUTES).map(shape).sort());
  });

  it("each body's members, as the table writes them", () => {
    for (const [route, body] of rows) {
      const key = Object.keys(ADMIN_ROUTES).find((candidate) => shape(candidate) === shape(codes(route!)[0]!)) as keyof typeof ADMIN_ROUTES;
      const rule = ADMIN_ROUTES[key].body;
      const documented = [...body!.matchAll(/(?<=[{,]\s*)([A-Za-z]+)\??(?=[,:}])/g)].map((match) => match[1]!);
      const members = rule.read === "object" && Array.isArray(rule.members) ? rule.members : [];
      expect(documented.sort(), `${key}: ${body}`).toEqual([...members].sort());
      if (splitRoute(key).method === "GET") expect(rule.read, key).toBe("none");
    }
  });
});
