/**
 * docs/service.md and docs/signals.md each end with a table of every rule of their reference
 * and where wfkit implements or assumes it. This holds the tables to the code: every test a row
 * names exists (in a file of that name under packages/*\/test or test/), every link reaches a
 * page (and a heading of it), every row says where, and every section of the reference has rows.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./helpers.js";

const HEADING = "## The reference, rule by rule";

/** Every file under the test folders, by base name. */
function testFiles(): Map<string, string[]> {
  const byName = new Map<string, string[]>();
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      if (entry.name === "node_modules" || entry.name === "dist" || entry.name.startsWith(".")) continue;
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".test.ts")) byName.set(entry.name, [...(byName.get(entry.name) ?? []), full]);
    }
  };
  for (const pkg of readdirSync(path.join(repoRoot, "packages"))) {
    const tests = path.join(repoRoot, "packages", pkg, "test");
    if (statSync(path.join(repoRoot, "packages", pkg)).isDirectory() && safeIsDirectory(tests)) walk(tests);
  }
  walk(path.join(repoRoot, "test"));
  return byName;
}

function safeIsDirectory(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}

/** GitHub's anchor for a heading. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function headingsOf(text: string): Set<string> {
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) => slug(match[1]!)));
}

const files = testFiles();

for (const doc of ["docs/service.md", "docs/signals.md"]) {
  describe(`${doc}: the reference, rule by rule`, () => {
    const text = readFileSync(path.join(repoRoot, doc), "utf8");
    const start = text.indexOf(HEADING);
    const end = text.indexOf("\n## ", start + HEADING.length);
    const section = text.slice(start, end < 0 ? undefined : end);
    const rows = section.split("\n").filter((line) => line.startsWith("| ") && !line.startsWith("| §"));

    it("has a table with a row for every section of the reference", () => {
      expect(start).toBeGreaterThan(0);
      const sections = new Set(rows.map((row) => row.split("|")[1]!.trim()));
      expect([...sections].sort()).toEqual(["1", "2", "3", "4", "5", "6", "7", "8", "9"]);
    });

    it("says where for every row: the tests it names exist, its links reach a page and a heading", () => {
      const missing: string[] = [];
      let named = 0;
      for (const row of rows) {
        const where = row.split(" | ").at(-1)!;
        const tests = [...where.matchAll(/`([\w.-]+\.test\.ts): "((?:[^"\\]|\\.)*)"`/g)];
        const links = [...where.matchAll(/\]\(([^)\s]+)\)/g)];
        if (!tests.length && !links.length) missing.push(`no test or link: ${row}`);
        named += tests.length;
        for (const [, file, name] of tests) {
          const candidates = files.get(file!) ?? [];
          if (!candidates.some((candidate) => readFileSync(candidate, "utf8").includes(`"${name}"`))) missing.push(`${file}: "${name}"`);
        }
        for (const [, target] of links) {
          const [page, anchor] = target!.split("#");
          const pagePath = page ? path.join(repoRoot, path.dirname(doc), page) : path.join(repoRoot, doc);
          let pageText: string;
          try {
            pageText = readFileSync(pagePath, "utf8");
          } catch {
            missing.push(`no page ${target}`);
            continue;
          }
          if (anchor && !headingsOf(pageText).has(anchor)) missing.push(`no heading #${anchor} in ${page || doc}`);
        }
      }
      expect(missing).toEqual([]);
      expect(named).toBeGreaterThan(rows.length / 2);
    });
  });
}
