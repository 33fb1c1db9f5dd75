/**
 * ARCHITECTURE.md's "Allowed imports" tables, enforced: every import of every package's
 * sources is one its row allows, browser-safe packages run nothing a browser cannot, and the
 * boundaries inside packages hold for everything their entries reach.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const architecture = readFileSync(path.join(root, "ARCHITECTURE.md"), "utf8");
const section = architecture.slice(architecture.indexOf("## Allowed imports"));

/** The rows of the markdown table whose header starts with `header`, as cells. */
function tableRows(header: string): string[][] {
  const lines = section.split("\n");
  const start = lines.findIndex((line) => line.startsWith(`| ${header}`));
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(line.split("|").slice(1, -1).map((cell) => cell.trim()));
  }
  return rows;
}

/** The names in backticks of a cell, with what parentheses say left out. */
function namesIn(cell: string): string[] {
  let depth = 0;
  let plain = "";
  for (const character of cell) {
    if (character === "(") depth++;
    else if (character === ")") depth--;
    else if (depth === 0) plain += character;
  }
  return [...plain.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
}

const sourceFiles = (directory: string): string[] =>
  (readdirSync(directory, { recursive: true, encoding: "utf8" }) as string[])
    .filter((name) => /\.(ts|mts|tsx)$/.test(name) && !name.endsWith(".d.ts"))
    .map((name) => path.join(directory, name));

/** Every module specifier a source imports: static, re-exported, side-effect and dynamic imports, and require. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const found: string[] = [];
  for (const match of text.matchAll(/(?:^|[;}\n])\s*(?:import|export)\s(?:type\s)?[^;'"`]*?from\s*["']([^"']+)["']|(?:^|[;\n])\s*import\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)|\brequire\(\s*["']([^"']+)["']\s*\)/g))
    found.push((match[1] ?? match[2] ?? match[3] ?? match[4])!);
  return found;
}

const isBuiltin = (specifier: string) => specifier.startsWith("node:") || builtinModules.includes(specifier.split("/")[0]!);
/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
const packageOf = (specifier: string) => (specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0]!);

function allows(allowed: readonly string[], builtins: boolean, specifier: string): boolean {
  if (isBuiltin(specifier)) return builtins;
  const name = packageOf(specifier);
  return allowed.some((entry) => entry === name || entry === specifier || (entry.endsWith("/*") && name.startsWith(entry.slice(0, -1))));
}

describe("allowed imports", () => {
  const rows = tableRows("package");

  it("has a row for every package, and every row names one", () => {
    const packages = readdirSync(path.join(root, "packages")).filter((name) => statSync(path.join(root, "packages", name, "src"), { throwIfNoEntry: false })?.isDirectory());
    expect(rows.map(([cell]) => namesIn(cell!)[0]).sort()).toEqual(packages.map((name) => `packages/${name}`).sort());
  });

  for (const [packageCell, allowedCell, browserCell] of rows) {
    const directory = namesIn(packageCell!)[0]!;
    const allowed = namesIn(allowedCell!);
    const builtins = /node built-ins/.test(allowedCell!.replace(/\([^)]*\)/g, ""));
    it(`${directory}: every import is allowed`, () => {
      const files = sourceFiles(path.join(root, directory, "src"));
      expect(files.length).toBeGreaterThan(0);
      const refused: string[] = [];
      for (const file of files)
        for (const specifier of importsOf(file))
          if (!specifier.startsWith(".") && !allows(allowed, builtins, specifier)) refused.push(`${path.relative(root, file)} imports ${specifier}`);
      expect(refused, "imports the table does not allow: add them to ARCHITECTURE.md's row if they are meant").toEqual([]);
    });
    if (browserCell === "yes")
      it(`${directory}: is browser-safe (no require, eval, new Function or process)`, () => {
        for (const file of sourceFiles(path.join(root, directory, "src"))) {
          const code = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
          expect(code, path.relative(root, file)).not.toMatch(/\brequire\(|\beval\(|\bnew Function\b|\bprocess\./);
        }
      });
  }
});

describe("boundaries inside packages", () => {
  const rows = tableRows("files");

  /** Every source file `entry` (a file or a directory) reaches through relative imports. */
  function reachedFrom(entry: string): string[] {
    const start = path.join(root, entry);
    const pending = statSync(start).isDirectory() ? sourceFiles(start) : [start];
    const seen = new Set<string>();
    while (pending.length) {
      const file = pending.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      for (const specifier of importsOf(file))
        if (specifier.startsWith(".")) {
          const target = path.resolve(path.dirname(file), specifier).replace(/\.js$/, ".ts");
          pending.push(statSync(target, { throwIfNoEntry: false })?.isFile() ? target : path.join(target, "index.ts"));
        }
    }
    return [...seen];
  }

  it("has rows", () => expect(rows.length).toBeGreaterThanOrEqual(3));

  for (const [filesCell, forbiddenCell] of rows) {
    const entry = namesIn(filesCell!)[0]!;
    const forbidden = namesIn(forbiddenCell!);
    it(`${entry} reaches no ${forbidden.join(", ")}`, () => {
      const reached = reachedFrom(entry);
      expect(reached.length).toBeGreaterThan(1);
      const refused: string[] = [];
      for (const file of reached)
        for (const specifier of importsOf(file))
          if (forbidden.some((name) => (name === "node:*" ? isBuiltin(specifier) : specifier === name))) refused.push(`${path.relative(root, file)} imports ${specifier}`);
      expect(refused).toEqual([]);
    });
  }

  it("the language server's browser entry does not reach the Node server", () => {
    const reached = reachedFrom("packages/language-server/src/browser.ts").map((file) => path.relative(root, file));
    expect(reached).toContain("packages/language-server/src/browser/server.ts");
    expect(reached).not.toContain("packages/language-server/src/server/server.ts");
  });
});
