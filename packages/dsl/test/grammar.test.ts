import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { KEYWORD_TEXTS, railroadHtml } from "@wfkit/dsl";
import { validateGrammar } from "../src/parser.js";

const grammarDir = fileURLToPath(new URL("../../../grammar/", import.meta.url));

describe("grammar files", () => {
  it("the railroad diagram is generated from the current parser", () => {
    const path = grammarDir + "wf-railroad.html";
    const html = railroadHtml();
    if (process.env["UPDATE_GOLDEN"] === "1") writeFileSync(path, html);
    expect(existsSync(path)).toBe(true);
    expect(readFileSync(path, "utf8"), "stale: run node packages/dsl/scripts/gen-grammar.mjs (after a build) or UPDATE_GOLDEN=1").toBe(html);
    for (const rule of ["file", "partStatement", "chainStatement", "block", "jsonLiteral"]) expect(html).toContain(`"name": "${rule}"`);
  });

  it("the TextMate grammar is valid, scoped source.wf, and knows every statement keyword", () => {
    const grammar = JSON.parse(readFileSync(grammarDir + "wf.tmLanguage.json", "utf8"));
    expect(grammar.scopeName).toBe("source.wf");
    const text = JSON.stringify(grammar);
    for (const word of KEYWORD_TEXTS) expect(text, word).toContain(word);
    // Every pattern is a regular expression JavaScript can read (TextMate's dialect is close).
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
    const declaration = new RegExp(grammar.repository.declaration.patterns[0].match);
    expect(declaration.exec('part compare = terminal.compare@1')?.slice(1, 5)).toEqual(["part", "compare", "=", "terminal.compare"]);
  });

  it("passes chevrotain's grammar validations, which the shipped parser skips to start fast", () => {
    expect(() => validateGrammar()).not.toThrow();
  });
});
