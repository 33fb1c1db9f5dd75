import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const srcDir = fileURLToPath(new URL("../src/", import.meta.url));
const sources = readdirSync(srcDir, { recursive: true, encoding: "utf8" }).filter((name) => name.endsWith(".ts"));

describe("the package", () => {
  it("stays browser-safe and editor-neutral: no node: imports, no LSP or vscode types in src", () => {
    expect(sources.length).toBeGreaterThan(10);
    for (const name of sources) {
      const text = readFileSync(srcDir + name, "utf8");
      expect(text, name).not.toMatch(/from\s+["']node:/);
      expect(text, name).not.toMatch(/from\s+["'](vscode|vscode-[\w-]+)["']/);
    }
  });
});
