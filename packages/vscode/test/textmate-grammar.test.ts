/**
 * The editor's TextMate grammar is generated from the DSL's lexical table: the checked-in file
 * must be what the generator writes for the current table, and it must colour `.wf` as the
 * language reads it.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as table from "@wfkit/dsl";
import { GRAMMAR_PATH, textMateGrammar } from "../scripts/textmate-grammar.mjs";

const text = textMateGrammar(table);
const grammar = JSON.parse(text) as { repository: Record<string, { match?: string; patterns?: { match: string; captures: Record<string, { name: string }> }[] }> };

/** The scope each capture of the first declaration pattern that matches `line` gives, by captured text. */
function declared(line: string): Record<string, string> {
  for (const pattern of grammar.repository["declaration"]!.patterns!) {
    const match = new RegExp(pattern.match).exec(line);
    if (match) return Object.fromEntries(Object.entries(pattern.captures).flatMap(([group, { name }]) => (match[Number(group)] ? [[match[Number(group)]!, name]] : [])));
  }
  return {};
}

describe("the TextMate grammar", () => {
  it("is the file checked in (stale: run `npm run grammar` after a build)", () => {
    expect(readFileSync(GRAMMAR_PATH, "utf8")).toBe(text);
  });

  it("knows every keyword of the table, and the editor's word pattern is the table's name pattern", () => {
    for (const word of table.KEYWORD_TEXTS) expect(text, word).toMatch(new RegExp(`[(|:]${word}[|)]`));
    const configuration = JSON.parse(readFileSync(new URL("../language-configuration.json", import.meta.url), "utf8")) as { wordPattern: string };
    expect(configuration.wordPattern).toBe(table.NAME_PATTERN.source);
  });

  it("colours each declaration's name and what follows it by what they stand for", () => {
    expect(declared("part compare = terminal.compare@1")).toEqual({ part: "storage.type.part.wf", compare: "entity.name.function.node.wf", "=": "keyword.operator.assignment.wf", "terminal.compare": "entity.name.type.part-id.wf" });
    expect(declared('trigger "first run" on_demand')).toMatchObject({ '"first run"': "entity.name.function.node.wf", on_demand: "support.constant.kind.wf" });
    expect(declared("gate floor hold with {}")).toMatchObject({ floor: "entity.name.function.node.wf", hold: "support.constant.below-floor.wf" });
    expect(Object.values(declared("gate floor with {}"))).not.toContain("support.constant.below-floor.wf");
    expect(declared('subject tesco = company "cmp_tesco"')).toMatchObject({ tesco: "entity.name.variable.subject.wf", company: "support.constant.kind.wf" });
    expect(declared("  trigger scheduled {")).toMatchObject({ scheduled: "support.constant.kind.wf" });
    // A keyword before `->` names a node: no declaration.
    expect(declared("part -> report")).toEqual({});
  });

  it("has only patterns JavaScript can read (TextMate's dialect is close)", () => {
    const patterns: string[] = [];
    const visit = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(visit);
      else if (value && typeof value === "object")
        for (const [key, child] of Object.entries(value)) {
          if ((key === "match" || key === "begin" || key === "end") && typeof child === "string") patterns.push(child);
          else visit(child);
        }
    };
    visit(grammar);
    expect(patterns.length).toBeGreaterThan(10);
    for (const pattern of patterns) expect(() => new RegExp(pattern)).not.toThrow();
  });
});
