/**
 * The directory walk's decision of whether a `.json` file is a definition, and the text it
 * hands to the check. The decision is held to the one it replaced (jsonc-parser's `visit` over
 * the whole text, kept below as the oracle) over generated JSON and JSONC texts: strict JSON in
 * several layouts, escaped keys, repeated keys, `$schema` of every kind, comments, trailing
 * commas, byte order marks, stray characters, cut texts and deep nesting on both sides of the
 * scan's depth.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { visit } from "jsonc-parser";
import { describe, expect, it } from "vitest";
import { bodyKindOf } from "@wfkit/core";
import { analyzeSource } from "@wfkit/dsl";
import { collectFiles, KEPT_TEXT_BUDGET, looksLikeDefinition, SCAN_DEPTH, scanStrictJson } from "../src/files.js";
import { checkJob, runCheckJob } from "../src/check-jobs.js";
import { tempTree } from "../../../test/support/temp-tree.js";

/** The decision as it was before the scan (files.ts at 15309af), verbatim: the oracle. */
function oldLooksLikeDefinition(text: string): boolean {
  const keys = new Set<string>();
  let schema: string | undefined;
  let schemaIsNext = false;
  try {
    visit(
      text,
      {
        onObjectProperty: (property, _offset, _length, _line, _character, pathSupplier) => {
          if (pathSupplier().length !== 0) return;
          keys.add(property);
          schemaIsNext = property === "$schema";
        },
        onLiteralValue: (value) => {
          if (schemaIsNext && typeof value === "string") schema = value;
          schemaIsNext = false;
        },
        onObjectBegin: () => {
          schemaIsNext = false;
        },
        onArrayBegin: () => {
          schemaIsNext = false;
        },
      },
      { allowTrailingComma: true, disallowComments: false },
    );
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
  }
  if (schema !== undefined && bodyKindOf(undefined, { $schema: schema }) !== "definition") return true;
  return keys.has("schemaVersion") || keys.has("scope") || (keys.has("nodes") && keys.has("edges"));
}

// ---------------------------------------------------------------- generated texts

/** A key as written in the text: plain, or with an escape that decodes to the same name. */
const keyText = fc.oneof(
  fc.constantFrom("schemaVersion", "scope", "nodes", "edges", "$schema", "name", "kind", "id", "__proto__", "a:b", "").map((key) => JSON.stringify(key)),
  fc.constantFrom('"\\u0024schema"', '"sch\\u0065maVersion"', '"node\\u0073"', '"edg\\u0065s"', '"sc\\/ope"', '"scope\\n"', '"a\\"b"'),
);

const stringText = fc.oneof(
  fc.constantFrom(
    "https://wfkit.dev/schema/alert.schema.json",
    "../schema/view.schema.json",
    "alert.schema.json",
    "view.schema.json",
    "https://json.schemastore.org/package.json",
    "definition.schema.json",
    "",
  ).map((value) => JSON.stringify(value)),
  fc.string({ maxLength: 6 }).map((value) => JSON.stringify(value)),
  fc.constantFrom('"alert\\u002eschema.json"', '"a\\tb"', '"\\ud800"', '"x\u2028y"'),
);

const literalText = fc.constantFrom("0", "-0", "1", "-12.5e+3", "1E2", "true", "false", "null", "1.0");

/** Blanks between tokens: JSON's own, mostly; sometimes what only a lenient reader takes. */
const blank = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom("", " ", "\n", "  ", "\n    ", "\r\n", "\t") },
  { weight: 1, arbitrary: fc.constantFrom("// note\n", "/* c */", "\u00a0", "\f", "\v", "\ufeff", "#", "\u2028") },
);

/** Now and then a trailing comma. */
const trailingComma = fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) });

/** A value written with random blanks (and now and then a trailing comma). */
const { value: valueText } = fc.letrec<{ value: string; object: string; array: string }>((tie) => ({
  value: fc.oneof({ depthSize: "small", withCrossShrink: true }, stringText, literalText, tie("object"), tie("array")),
  object: fc
    .tuple(fc.array(fc.tuple(blank, keyText, blank, blank, tie("value"), blank), { maxLength: 5 }), blank, trailingComma)
    .map(([entries, end, trailing]) => `{${entries.map(([a, k, b, c, v, d]) => `${a}${k}${b}:${c}${v}${d}`).join(",")}${trailing && entries.length ? "," : ""}${end}}`),
  array: fc
    .tuple(fc.array(fc.tuple(blank, tie("value"), blank), { maxLength: 4 }), blank, trailingComma)
    .map(([items, end, trailing]) => `[${items.map(([a, v, b]) => `${a}${v}${b}`).join(",")}${trailing && items.length ? "," : ""}${end}]`),
}));

/** A value holding a schema's name at once, or one level down (which must not count). */
const schemaLike = fc.oneof(stringText, stringText.map((value) => `[${value}]`), stringText.map((value) => `{"$schema": ${value}}`), stringText.map((value) => `[[], ${value}]`));

/** A top-level object whose keys are mostly the deciding ones. */
const topLevel = fc
  .tuple(
    fc.array(
      fc.tuple(
        fc.oneof({ weight: 3, arbitrary: fc.constantFrom('"schemaVersion"', '"scope"', '"nodes"', '"edges"', '"$schema"') }, { weight: 2, arbitrary: keyText }),
        fc.oneof(schemaLike, valueText),
        blank,
      ),
      { maxLength: 6 },
    ),
    blank,
    blank,
  )
  .map(([entries, before, after]) => `${before}{${entries.map(([k, v, b]) => `${b}${k}:${v}`).join(",")}}${after}`);

/** A text spoiled now and then: a byte order mark, a character dropped or added, the end cut off. */
const spoiled = fc
  .tuple(fc.oneof({ weight: 3, arbitrary: topLevel }, { weight: 1, arbitrary: valueText }), fc.nat(), fc.constantFrom("none", "none", "none", "bom", "drop", "insert", "cut"), fc.constantFrom("{", "}", "[", "]", ",", ":", '"', "\\", "/", "*", " ", "x", "1", "\u0001", "\n"))
  .map(([text, at, how, char]) => {
    const i = text.length ? at % text.length : 0;
    if (how === "bom") return "\ufeff" + text;
    if (how === "drop") return text.slice(0, i) + text.slice(i + 1);
    if (how === "insert") return text.slice(0, i) + char + text.slice(i);
    if (how === "cut") return text.slice(0, i);
    return text;
  });

/** Deciding keys around a value nested `depth` levels, on both sides of the scan's limit. */
const deep = fc
  .tuple(
    fc.constantFrom(1, SCAN_DEPTH - 1, SCAN_DEPTH, SCAN_DEPTH + 1, 700, 60_000),
    fc.constantFrom("[", '{"a":'),
    fc.subarray(['"schemaVersion":1', '"nodes":[]', '"edges":[]', '"$schema":"alert.schema.json"'], { minLength: 1 }),
    fc.nat(4),
  )
  .map(([depth, open, keys, split]) => {
    const close = open === "[" ? "]" : "}";
    const nested = `"deep":${open.repeat(depth)}0${close.repeat(depth)}`;
    const at = split % (keys.length + 1);
    return `{${[...keys.slice(0, at), nested, ...keys.slice(at)].join(",")}}`;
  });

describe("looksLikeDefinition", () => {
  it("decides as jsonc-parser's lenient reader did, on JSON and JSONC texts", () => {
    fc.assert(
      fc.property(spoiled, (text) => {
        expect(looksLikeDefinition(text)).toBe(oldLooksLikeDefinition(text));
      }),
      { numRuns: 4000 },
    );
  });

  it("decides as before on deeply nested text, the scan's limit on either side", () => {
    fc.assert(
      fc.property(deep, (text) => {
        expect(looksLikeDefinition(text)).toBe(oldLooksLikeDefinition(text));
      }),
      { numRuns: 60 },
    );
  });

  it("decides as before on the cases the old tests named", () => {
    for (const text of [
      '{"schemaVersion": 1, "nodes": [], "edges": []}',
      '{"scope": {}}',
      '{"nodes": []}',
      '{"config": {"schemaVersion": 1}}',
      '// comment\n{"schemaVersion": 1,, oops',
      "[1, 2]",
      "",
      '{"$schema": "https://wfkit.dev/schema/alert.schema.json", "name": "a"}',
      '{"$schema": "alert.schema.json", "$schema": 5}',
      '{"$schema": 5, "$schema": "view.schema.json"}',
      '{"inner": {"$schema": "alert.schema.json"}}',
      '{"$schema": ["alert.schema.json"]}',
      '{"$schema": {"x": "alert.schema.json"}}',
      '\ufeff{"schemaVersion": 1}',
      '{"nodes": [], "edges": []} trailing',
    ])
      expect(looksLikeDefinition(text), text).toBe(oldLooksLikeDefinition(text));
  });
});

describe("scanStrictJson", () => {
  it("takes exactly the texts JSON.parse takes (a leading byte order mark aside), with their top-level keys", () => {
    fc.assert(
      fc.property(spoiled, (text) => {
        const scan = scanStrictJson(text);
        let value: unknown;
        let strict = true;
        try {
          value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
        } catch {
          strict = false;
        }
        expect(scan !== undefined).toBe(strict);
        if (!scan) return;
        const keys = value !== null && typeof value === "object" && !Array.isArray(value) ? Object.keys(value) : [];
        expect(new Set(scan.topLevelKeys)).toEqual(new Set(keys));
      }),
      { numRuns: 3000 },
    );
  });

  it("says no key repeats only when none does, and the check is the same with its word as without", () => {
    fc.assert(
      fc.property(spoiled, (text) => {
        const scan = scanStrictJson(text);
        if (!scan) return;
        const plain = analyzeSource(text, "json", { fileName: "x.json" });
        const scanned = analyzeSource(text, "json", { fileName: "x.json", scannedJson: { mayRepeatKeys: scan.mayRepeatKeys } });
        if (scan.mayRepeatKeys === false) expect(plain.faults.filter((fault) => fault.code === "duplicate-field")).toEqual([]);
        expect(scanned.faults).toEqual(plain.faults);
        expect(scanned.definition).toEqual(plain.definition);
      }),
      { numRuns: 1500 },
    );
  });

  it("finds a repeated key in any object, and leaves a large object to the exact scan", () => {
    expect(scanStrictJson('{"a": {"b": 1, "c": 2, "b": 3}}')?.mayRepeatKeys).toBe(true);
    expect(scanStrictJson('[{"b": 1}, {"b": 2}]')?.mayRepeatKeys).toBe(false);
    expect(scanStrictJson('{"a": {"b": 1}, "b": {"a": 2}}')?.mayRepeatKeys).toBe(false);
    expect(scanStrictJson('{"a": 1, "\\u0061": 2}')?.mayRepeatKeys).toBe(true);
    const wide = `{${Array.from({ length: 100 }, (_, i) => `"k${i}": ${i}`).join(", ")}}`;
    expect(scanStrictJson(wide)?.mayRepeatKeys).toBeUndefined();
  });
});

describe("collectFiles", () => {
  // A valid definition (examples/company-profile.json) whose trigger is named `id`.
  const example = JSON.parse(readFileSync(new URL("../../../examples/company-profile.json", import.meta.url), "utf8")) as { nodes: { id: string }[]; edges: { from: string; to: string }[] };
  const definition = (id: string) => {
    const start = example.nodes[0]!.id;
    const rename = (name: string) => (name === start ? id : name);
    return JSON.stringify({ ...example, nodes: example.nodes.map((node) => ({ ...node, id: rename(node.id) })), edges: example.edges.map((edge) => ({ ...edge, from: rename(edge.from), to: rename(edge.to) })) }, null, 2);
  };

  it("hands the check the text that decided, so the file is read once", async () => {
    const root = tempTree({ "a/one.json": definition("first"), "a/package.json": '{"name": "x"}', "b/two.workflow.json": definition("named") });
    const { files } = await collectFiles(["."], { cwd: root, kind: "definitions" });
    expect(files.map((file) => file.displayPath)).toEqual(["a/one.json", "b/two.workflow.json"]);
    const [one, two] = files;
    expect(one!.read?.text).toBe(readFileSync(path.join(root, "a/one.json"), "utf8"));
    expect(one!.read?.scannedJson).toEqual({ mayRepeatKeys: false });
    // Named by its name: not read by the walk.
    expect(two!.read).toBeUndefined();

    // The check reads nothing again: the file is broken since the walk, and the walk's text is what is checked.
    writeFileSync(path.join(root, "a/one.json"), "{ broken");
    const job = { displayPath: one!.displayPath, absolutePath: one!.absolutePath, languageName: one!.absolutePath, severity: new Map() };
    expect((await runCheckJob({ ...job, ...one!.read }, root)).ok).toBe(true);
    expect((await runCheckJob(job, root)).ok).toBe(false);
  });

  it("keeps no more text than its budget: past it a file is counted and read again by the check", async () => {
    // Six tenths of the budget each (trailing blanks): whichever of the two the walk reads first is kept.
    const big = definition("start") + " ".repeat(Math.ceil(KEPT_TEXT_BUDGET * 0.6));
    const root = tempTree({ "1.json": big, "2.json": big, "3.json": definition("small") });
    const { files } = await collectFiles(["."], { cwd: root, kind: "definitions" });
    expect(files.map((file) => file.displayPath)).toEqual(["1.json", "2.json", "3.json"]);
    expect(files.filter((file) => file.read).length).toBe(2);
  });

  it("judges a file with comments leniently, and hands it on without a scan", async () => {
    const root = tempTree({ "c.json": '// a definition\n{"schemaVersion": 1, "nodes": [], "edges": [],}' });
    const { files } = await collectFiles(["."], { cwd: root, kind: "definitions" });
    expect(files).toHaveLength(1);
    expect(files[0]!.read?.scannedJson).toBeUndefined();
    expect(files[0]!.read?.text).toContain("// a definition");
  });

  it("hands each file it reads to `take` as read, keeping no text, and the checks are those of the texts kept", async () => {
    const clean = definition("first");
    const files = {
      "a/clean.json": clean,
      // Opens with a key that decides: taken without a scan, so the check's parse finds the repeat.
      "a/repeated.json": clean.replace('"schemaVersion": 1,', '"schemaVersion": 1, "schemaVersion": 1,'),
      "a/faulty.json": definition("first").replace('"kind": "trigger"', '"kind": "trigger", "extra": 1'),
      // Decided by the scan (no deciding first key) and by the lenient reader (comments).
      "b/keys-later.json": `{"nodes": ${JSON.stringify(example.nodes)}, "edges": ${JSON.stringify(example.edges)}, "schemaVersion": 1}`,
      "b/commented.json": "// a definition\n" + clean,
      "b/ignored.json": clean,
      "b/package.json": '{"name": "x"}',
      "c/named.workflow.json": clean,
    };
    const root = tempTree(files);
    const ignores = { isIgnored: (file: string) => file.endsWith(`${path.sep}ignored.json`), isIgnoredDirectory: () => false };
    const kept = await collectFiles(["."], { cwd: root, kind: "definitions", ignores });
    const handed: string[] = [];
    const taken = await collectFiles(["a", "."], {
      cwd: root,
      kind: "definitions",
      ignores,
      take: (absolutePath, read) => {
        handed.push(path.relative(root, absolutePath).split(path.sep).join("/"));
        const job = { displayPath: path.relative(root, absolutePath), absolutePath, languageName: absolutePath, severity: new Map() };
        return checkJob({ ...job, ...read }, root);
      },
    });
    // Each once (`a` is named twice over), never an ignored file nor one counted by its name.
    expect(handed.sort()).toEqual(["a/clean.json", "a/faulty.json", "a/repeated.json", "b/commented.json", "b/keys-later.json"]);
    expect(taken.files.map((file) => file.displayPath)).toEqual(kept.files.map((file) => file.displayPath));
    expect(taken.files.map((file) => file.displayPath)).toEqual(["a/clean.json", "a/faulty.json", "a/repeated.json", "b/commented.json", "b/keys-later.json", "c/named.workflow.json"]);
    for (const [i, file] of taken.files.entries()) {
      const before = kept.files[i]!;
      const job = { displayPath: path.relative(root, file.absolutePath), absolutePath: file.absolutePath, languageName: file.absolutePath, severity: new Map() };
      const expected = await runCheckJob({ ...job, ...before.read }, root);
      if (file.displayPath === "c/named.workflow.json") {
        expect(file.taken).toBeUndefined();
        continue;
      }
      expect(file.read).toBeUndefined();
      expect(file.taken).toEqual(expected);
    }
    const codes = (name: string) => (taken.files.find((file) => file.displayPath === name)!.taken as { faults: { code: string }[] }).faults.map((fault) => fault.code);
    expect(codes("a/repeated.json")).toContain("duplicate-field");
    expect(codes("a/faulty.json").length).toBeGreaterThan(0);
    expect(codes("a/clean.json")).toEqual([]);
    expect(codes("b/keys-later.json")).toEqual([]);
  });

  it("keeps a file `take` declines as it keeps one without `take`", async () => {
    const root = tempTree({ "one.json": definition("first") });
    const { files } = await collectFiles(["."], { cwd: root, kind: "definitions", take: () => undefined });
    expect(files).toHaveLength(1);
    expect(files[0]!.taken).toBeUndefined();
    expect(files[0]!.read?.text).toBe(readFileSync(path.join(root, "one.json"), "utf8"));
  });
});
