import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { railroadHtml } from "@wfkit/dsl";
import { validateGrammar } from "../src/parser.js";

const grammarDir = fileURLToPath(new URL("../../../grammar/", import.meta.url));

describe("grammar files", () => {
  it("the railroad diagram is generated from the current parser", () => {
    const path = grammarDir + "wf-railroad.html";
    const html = railroadHtml();
    if (process.env["UPDATE_GOLDEN"] === "1") writeFileSync(path, html);
    expect(existsSync(path)).toBe(true);
    expect(readFileSync(path, "utf8"), "stale: run `npm run grammar` (after a build) or UPDATE_GOLDEN=1").toBe(html);
    for (const rule of ["file", "partStatement", "chainStatement", "block", "jsonLiteral"]) expect(html).toContain(`"name": "${rule}"`);
  });

  it("passes chevrotain's grammar validations, which the shipped parser skips to start fast", () => {
    expect(() => validateGrammar()).not.toThrow();
  });
});
