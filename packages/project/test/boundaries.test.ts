/**
 * The boundary ARCHITECTURE.md draws: `@wfkit/project/pure` and everything it reaches does no
 * I/O (no `node:` import), and the language service under `src/service/` imports only that
 * entry of @wfkit/project, never the part that reads files.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const packages = fileURLToPath(new URL("../../", import.meta.url));
const importsOf = (file: string) => [...readFileSync(file, "utf8").matchAll(/^(?:import|export)[^;]*?from\s+"([^"]+)"/gm)].map((match) => match[1]!);

describe("boundaries", () => {
  it("the pure entry reaches no node: module", () => {
    const pending = [path.join(packages, "project/src/pure.ts")];
    const seen = new Set<string>();
    while (pending.length) {
      const file = pending.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      for (const specifier of importsOf(file)) {
        expect(specifier, `${path.basename(file)} imports ${specifier}`).not.toMatch(/^node:|^@wfkit\/project$/);
        if (specifier.startsWith(".")) pending.push(path.resolve(path.dirname(file), specifier.replace(/\.js$/, ".ts")));
      }
    }
    expect(seen.size).toBeGreaterThan(4);
  });

  it("the language service imports only @wfkit/project/pure", () => {
    const service = path.join(packages, "language-server/src/service");
    const files = (readdirSync(service, { recursive: true }) as string[]).filter((name) => name.endsWith(".ts")).map((name) => path.join(service, name));
    const projectImports = files.flatMap((file) => importsOf(file).filter((specifier) => specifier.startsWith("@wfkit/project")));
    expect(projectImports.length).toBeGreaterThan(0);
    expect(new Set(projectImports)).toEqual(new Set(["@wfkit/project/pure"]));
  });
});
