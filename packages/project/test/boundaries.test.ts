/**
 * The boundary ARCHITECTURE.md draws: `@wfkit/project/pure` and everything it reaches does no
 * I/O (no `node:` import), and the language service under `src/service/` imports only that
 * entry of @wfkit/project, never the part that reads files. The language server's browser
 * entry (what the playground's Web Worker runs) reaches no `node:` module, no file reading and
 * no Workflows API.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const packages = fileURLToPath(new URL("../../", import.meta.url));
const importsOf = (file: string) => [...readFileSync(file, "utf8").matchAll(/^(?:import|export)[^;]*?from\s+"([^"]+)"/gm)].map((match) => match[1]!);

/** Every source file `entry` reaches through relative imports; none may import what `forbidden` matches. */
function reachableFrom(entry: string, forbidden: RegExp): Set<string> {
  const pending = [path.join(packages, entry)];
  const seen = new Set<string>();
  while (pending.length) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of importsOf(file)) {
      expect(specifier, `${path.relative(packages, file)} imports ${specifier}`).not.toMatch(forbidden);
      if (specifier.startsWith(".")) pending.push(path.resolve(path.dirname(file), specifier.replace(/\.js$/, ".ts")));
    }
  }
  return new Set([...seen].map((file) => path.relative(packages, file)));
}

describe("boundaries", () => {
  it("the pure entry reaches no node: module", () => {
    expect(reachableFrom("project/src/pure.ts", /^node:|^@wfkit\/project$/).size).toBeGreaterThan(4);
  });

  it("the language server's browser entry reaches no node: module, no file reading and no Workflows API", () => {
    const reached = reachableFrom("language-server/src/browser.ts", /^node:|^@wfkit\/(project|client)$/);
    expect(reached).toContain("language-server/src/browser/server.ts");
    expect(reached).not.toContain("language-server/src/server/server.ts");
  });

  it("the language service imports only @wfkit/project/pure", () => {
    const service = path.join(packages, "language-server/src/service");
    const files = (readdirSync(service, { recursive: true }) as string[]).filter((name) => name.endsWith(".ts")).map((name) => path.join(service, name));
    const projectImports = files.flatMap((file) => importsOf(file).filter((specifier) => specifier.startsWith("@wfkit/project")));
    expect(projectImports.length).toBeGreaterThan(0);
    expect(new Set(projectImports)).toEqual(new Set(["@wfkit/project/pure"]));
  });
});
