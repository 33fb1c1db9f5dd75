/**
 * The browser entry (`@wfkit/language-server/browser`, what the playground's Web Worker runs)
 * reaches no `node:` module and none of the parts that read files or call the Workflows API,
 * following every relative import from src/browser.ts.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const src = fileURLToPath(new URL("../src/", import.meta.url));
const importsOf = (file: string) => [...readFileSync(file, "utf8").matchAll(/^(?:import|export)[^;]*?from\s+"([^"]+)"/gm)].map((match) => match[1]!);

describe("the browser entry", () => {
  it("reaches no node: module, no file reading and no Workflows API", () => {
    const pending = [path.join(src, "browser.ts")];
    const seen = new Set<string>();
    while (pending.length) {
      const file = pending.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      for (const specifier of importsOf(file)) {
        expect(specifier, `${path.relative(src, file)} imports ${specifier}`).not.toMatch(/^node:|^@wfkit\/(project|client)$/);
        if (specifier.startsWith(".")) pending.push(path.resolve(path.dirname(file), specifier.replace(/\.js$/, ".ts")));
      }
    }
    const files = [...seen].map((file) => path.relative(src, file));
    expect(files).toContain("browser/server.ts");
    expect(files).not.toContain("server/server.ts");
    expect(files).not.toContain("server/checker.ts");
  });
});
