// The diagnostic registry (packages/core/src/diagnostic-codes.ts) holds every code wfkit can
// report: a code reported anywhere without an entry, or an entry without its page, fails here.
import { describe, expect, it } from "vitest";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { diagnosticCodeByName, diagnosticCodes, DOCS_URL, DSL_CODES, EDITOR_CODES, rules, SUPPRESSION_CODES, WFKIT_HOMEPAGE } from "@wfkit/core";
import { analyzeSource } from "@wfkit/dsl";
import { applyProjectPolicy, NO_POLICY } from "@wfkit/project/pure";

const root = fileURLToPath(new URL("..", import.meta.url));
const EMITTING_PACKAGES = ["core", "dsl", "project", "cli", "language-server"];

function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules" && entry.name !== "generated") found.push(...filesUnder(path, keep));
    } else if (keep(entry.name)) found.push(path);
  }
  return found;
}

const sources = EMITTING_PACKAGES.flatMap((pkg) => filesUnder(join(root, "packages", pkg, "src"), (name) => name.endsWith(".ts"))).map((path) => ({
  path: relative(root, path),
  text: readFileSync(path, "utf8"),
}));

const CONSTANT_TABLES: Record<string, Record<string, string>> = { DSL_CODES, SUPPRESSION_CODES, EDITOR_CODES };

describe("the diagnostic registry", () => {
  it("holds each code once, with a category, a title, a rationale and a fix", () => {
    expect(new Set(diagnosticCodes.map((info) => info.code)).size).toBe(diagnosticCodes.length);
    for (const info of diagnosticCodes) {
      expect(info.code, info.code).toMatch(/^[a-z]+(-[a-z]+)*$/);
      for (const text of [info.category, info.title, info.rationale, info.fix]) expect(text, info.code).not.toBe("");
    }
  });

  it("gives every code a page under docs/ and a help URL that names that file", () => {
    expect(DOCS_URL).toBe(`${WFKIT_HOMEPAGE}/blob/main/docs/`);
    for (const info of diagnosticCodes) {
      expect(existsSync(join(root, "docs", info.docsPage)), info.docsPage).toBe(true);
      expect(info.helpUrl.startsWith(DOCS_URL), info.code).toBe(true);
      expect(existsSync(join(root, "docs", info.helpUrl.slice(DOCS_URL.length))), info.helpUrl).toBe(true);
    }
  });

  it("leaves no page under docs/rules/ for a code it does not hold", () => {
    const pages = readdirSync(join(root, "docs", "rules")).map((name) => name.replace(/\.md$/, ""));
    expect(pages.filter((code) => !diagnosticCodeByName.has(code))).toEqual([]);
  });

  it("holds every rule, named by its file", () => {
    for (const { meta } of rules) expect(diagnosticCodeByName.get(meta.id)?.source, meta.id).toBe("core");
    const ruleFiles = sources.filter(({ path, text }) => /packages\/core\/src\/rules\//.test(path) && /export default defineRule\(/.test(text));
    for (const { path, text } of ruleFiles) {
      const id = /\bid: "([^"]+)"/.exec(text)?.[1];
      expect(id, path).toBe(path.replace(/^.*\//, "").replace(/\.ts$/, ""));
      expect(diagnosticCodeByName.has(id!), path).toBe(true);
    }
  });

  it("holds every code written in the sources, as a literal or through the typed constants", () => {
    const unknown: string[] = [];
    let seen = 0;
    for (const { path, text } of sources) {
      // A code written out: `code: "x"`, or compared, `code === "x"` (Node's error codes are upper case).
      for (const match of text.matchAll(/(?<!typeof\s+[\w.]*)\bcode(?::|\s*[!=]==)\s*"([a-z][a-z-]*)"/g)) {
        seen++;
        if (!diagnosticCodeByName.has(match[1]!)) unknown.push(`${path}: ${match[1]}`);
      }
      for (const match of text.matchAll(/\b(DSL_CODES|SUPPRESSION_CODES|EDITOR_CODES)\.(\w+)/g)) {
        seen++;
        const code = CONSTANT_TABLES[match[1]!]![match[2]!];
        if (code === undefined || !diagnosticCodeByName.has(code)) unknown.push(`${path}: ${match[0]}`);
      }
    }
    expect(unknown).toEqual([]);
    // The scan finds what it looks for (the DSL and the suppressions report through the constants).
    expect(seen).toBeGreaterThan(20);
  });

  it("holds every code the tools report on the examples and on a file full of the language's faults", () => {
    const inputs = [...filesUnder(join(root, "examples"), (name) => /\.(wf|json)$/.test(name) && !name.includes("config")), ...filesUnder(join(root, "packages", "cli", "test", "fixtures"), (name) => /\.(wf|json)$/.test(name) && !name.includes("config"))];
    inputs.push("every-fault.wf");
    const everyFault = [
      "workflow a",
      "workflow b",
      "subject s = company \"cmp_1\" \"S\"",
      "subject s = company \"cmp_2\" \"S\"",
      "trigger start on_demand",
      "part p = pack@1 with {\"n\": 12345678901234567891, \"n\": 1e400}",
      "part q = pack@1 { job a@1 job b@1 }",
      "start -> p -> nowhere",
      "# wfkit-ignore dead-end",
      "part r = pack@1  # wfkit-ignore syntax: no",
      "part t = pack@1  # wfkit-ignore unknown-field: nothing here",
      "part = ",
    ].join("\n");
    const reported = new Set<string>();
    for (const path of inputs) {
      const text = path === "every-fault.wf" ? everyFault : readFileSync(path, "utf8");
      const analysis = analyzeSource(text, path.endsWith(".json") ? "json" : "wf");
      const { faults } = applyProjectPolicy({ text, faults: analysis.faults, ast: analysis.ast, definition: analysis.definition }, NO_POLICY);
      for (const fault of faults) reported.add(fault.code);
    }
    expect([...reported].filter((code) => !diagnosticCodeByName.has(code))).toEqual([]);
    // The inputs reach every family: core's rules, the language's faults and the suppressions'.
    for (const code of ["part-unknown", "syntax", "duplicate-field", "duplicate-name", "number-precision", "json-syntax", SUPPRESSION_CODES.withoutReason, SUPPRESSION_CODES.unused, SUPPRESSION_CODES.ofError]) expect(reported, code).toContain(code);
  });
});
