// Hostile files through the BUILT CLI, as a child process, the way pre-commit hooks and CI run
// it: exit 1 with a positioned fault (0 when valid), never 2 for user content, never a stack
// trace, JSON output that parses; and writing commands never damage the file they read.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { checkFile, ensureBuilt, pollutionProbe, runCli, tempDir } from "./support.js";

beforeAll(() => ensureBuilt());

const VALID_WF = "trigger start on_demand\ngate floor hold\ndestination inbox standalone\nstart -> floor -> inbox\n";
const VALID_JSON = JSON.stringify({
  schemaVersion: 1,
  nodes: [
    { id: "start", kind: "trigger", trigger: { kind: "on_demand" } },
    { id: "inbox", kind: "destination", destination: { kind: "standalone" } },
  ],
  edges: [{ from: "start", to: "inbox" }],
});
const deep = 100_000;

interface Case {
  name: string;
  file: string;
  content: string | Uint8Array;
  status: 0 | 1;
  /** A fault expected (the first of its code): code and 1-based start line and column; none when valid. */
  first?: [code: string, line: number, column: number];
}

const cases: Case[] = [
  { name: "an empty .wf", file: "empty.wf", content: "", status: 1, first: ["trigger-missing", 1, 1] },
  { name: "an empty .json", file: "empty.json", content: "", status: 1, first: ["json-syntax", 1, 1] },
  { name: "a .wf of only comments", file: "comments.wf", content: "# a\n# b\n", status: 1, first: ["trigger-missing", 1, 1] },
  { name: "binary garbage as .wf", file: "garbage.wf", content: new Uint8Array([0xff, 0xfe, 0x00, 0x80, 0xc3, 0x28, 0x1b, 0x0a, 0xed, 0xa0, 0x80]), status: 1, first: ["syntax", 1, 1] },
  { name: "binary garbage as .json", file: "garbage.json", content: new Uint8Array([0x00, 0xff, 0x7b, 0x80, 0x22]), status: 1, first: ["json-syntax", 1, 1] },
  { name: "a valid .wf with a BOM and CRLF", file: "bom-crlf.wf", content: "\ufeff" + VALID_WF.replace(/\n/g, "\r\n"), status: 0 },
  { name: "a valid .wf with lone CR line ends", file: "cr.wf", content: VALID_WF.replace(/\n/g, "\r"), status: 0 },
  // The BOM is not a column: the fault on line 1 starts at column 1 + the length of "trigger start ".
  { name: "a faulty .wf with a BOM", file: "bom-bad.wf", content: "\ufefftrigger start nope\n", status: 1, first: ["trigger-kind", 1, 15] },
  { name: "a valid .json with a BOM", file: "bom.json", content: "\ufeff" + VALID_JSON, status: 0 },
  { name: "a faulty .wf with lone CR line ends", file: "cr-bad.wf", content: VALID_WF.replace("hold", "drop").replace(/\n/g, "\r"), status: 1, first: ["gate-floor", 2, 12] },
  { name: "a 1 MB identifier", file: "long-id.wf", content: VALID_WF.replaceAll("floor", "f".repeat(1 << 20)), status: 0 },
  { name: `${deep.toLocaleString("en")} nested JSON arrays`, file: "deep.json", content: "[".repeat(deep) + "]".repeat(deep), status: 1, first: ["json-syntax", 1, 2001] },
  { name: `${deep.toLocaleString("en")} nested JSON objects`, file: "deep-objects.json", content: '{"a":'.repeat(deep) + "1" + "}".repeat(deep), status: 1, first: ["json-syntax", 1, 10_001] },
  { name: `${deep.toLocaleString("en")} nested arrays in a .wf literal`, file: "deep.wf", content: `node ${"[".repeat(deep)}${"]".repeat(deep)}\n`, status: 1, first: ["syntax", 1, 2006] },
  { name: `${deep.toLocaleString("en")} unclosed brackets in a .wf`, file: "deep-open.wf", content: `node ${"[".repeat(deep)}\n`, status: 1, first: ["syntax", 1, 2006] },
  {
    name: "Object.prototype's names as ids",
    file: "proto-ids.wf",
    content: "trigger __proto__ on_demand\ngate constructor hold\ngate toString hold\ndestination valueOf standalone\n__proto__ -> constructor -> toString -> valueOf\n",
    status: 0,
  },
];

describe("wfkit check on hostile files", () => {
  for (const testCase of cases) {
    it(`${testCase.name}: exit ${testCase.status}${testCase.first ? `, fault ${testCase.first[0]} at ${testCase.first[1]}:${testCase.first[2]}` : ", no fault"}`, () => {
      const dir = tempDir({ [testCase.file]: testCase.content });
      const run = checkFile(dir, testCase.file);
      expect(run.status).toBe(testCase.status);
      if (!testCase.first) {
        expect(run.faults).toEqual([]);
        return;
      }
      const [code, line, column] = testCase.first;
      expect(run.faults.find((fault) => fault.code === code)).toMatchObject({ severity: "error", range: { start: { line, column } } });
      // Clear: a message, and of a size a person can read.
      for (const fault of run.faults) expect(fault.message.length).toBeGreaterThan(10);
    });
  }

  it("a directory holding a 100,000-level .json is walked, and the file reported (not an internal error)", () => {
    // Found by this suite: sniffing whether a .json is a definition overflowed the stack.
    const dir = tempDir({ "deep-definition.json": `{"schemaVersion": 1, "ui": ${"[".repeat(deep)}${"]".repeat(deep)}}` });
    const run = checkFile(dir, ".");
    expect(run.status).toBe(1);
    expect(run.faults.map((fault) => fault.code)).toEqual(["json-syntax"]);
  });

  it("a 100,000-level wfkit.config.json is a one-line configuration error (exit 2), not an internal error", () => {
    const dir = tempDir({ "wfkit.config.json": `{"ignore": ${"[".repeat(deep)}${"]".repeat(deep)}}`, "a.wf": VALID_WF });
    const run = runCli(["check", "a.wf"], { cwd: dir });
    expect(run.status).toBe(2);
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(/wfkit\.config\.json:1:1: not valid JSON \(nested too deeply to read\)/);
  });
});

describe("hostile catalogues through the CLI", () => {
  const part = (partId: string, requires: string[], produces: string[]) => ({ partId, versions: ["1"], requires, produces, unattendedSafe: true, cost: { baseMinorUnits: 1 } });

  it("a catalogue whose parts require and produce each other in a cycle is used normally", () => {
    const catalogue = { catalogueVersion: 1, parts: [part("a", ["y"], ["x"]), part("b", ["x"], ["y"])] };
    const definition = {
      schemaVersion: 1,
      nodes: [{ id: "t", kind: "trigger", trigger: { kind: "on_demand" } }, { id: "a", partId: "a", partVersion: "1" }, { id: "b", partId: "b", partVersion: "1" }, { id: "d", kind: "destination", destination: { kind: "standalone" } }],
      edges: [{ from: "t", to: "a" }, { from: "a", to: "b" }, { from: "b", to: "a" }, { from: "b", to: "d" }],
    };
    const dir = tempDir({ "catalogue.json": JSON.stringify(catalogue), "flow.json": JSON.stringify(definition, null, 2) });
    const run = checkFile(dir, "flow.json", ["--catalogue", "catalogue.json"]);
    expect(run.status).toBe(1);
    expect(run.faults.map((fault) => fault.code).sort()).toEqual(["cycle", "edge-incompatible"]);
  });

  it("a catalogue with missing fields, wrong types or 100,000 levels of nesting is a one-line error (exit 2: it is configuration)", () => {
    const bad = {
      "missing.json": JSON.stringify({ catalogueVersion: 1, parts: [{ partId: "p" }] }),
      "types.json": JSON.stringify({ catalogueVersion: "1", parts: [{ partId: 1, versions: "1", requires: "x", produces: null, unattendedSafe: "no", cost: [] }] }),
      "deep.json": `{"catalogueVersion": 1, "parts": ${"[".repeat(deep)}${"]".repeat(deep)}}`,
      "proto.json": '{"catalogueVersion": 1, "parts": [], "__proto__": {"polluted": true}}',
    };
    const dir = tempDir({ ...bad, "a.wf": VALID_WF });
    for (const name of ["missing.json", "types.json", "deep.json"]) {
      const run = runCli(["check", "a.wf", "--catalogue", name], { cwd: dir });
      expect(run.status, name).toBe(2);
      expect(run.stderr.trimEnd().split("\n"), name).toHaveLength(1);
      expect(run.stderr, name).toMatch(new RegExp(`^wfkit: .*${name.replace(".", "\\.")}`));
      expect(run.stderr, name).not.toMatch(/internal error|\n\s+at /);
    }
    // `__proto__` in a catalogue is an unknown key, nothing more: the catalogue still loads.
    expect([0, 1, 2]).toContain(runCli(["check", "a.wf", "--catalogue", "proto.json"], { cwd: dir }).status);
  });
});

describe("nothing lost: writing commands never damage what they read", () => {
  const broken = "# keep me\ntrigger start on_demand\npart p = pack@1 {\ndestination d standalone\n";

  it("fmt --write on a file that does not parse leaves it byte for byte", () => {
    const dir = tempDir({ "broken.wf": broken, "garbage.wf": new Uint8Array([0xff, 0x00, 0x7b, 0x0a]) });
    for (const name of ["broken.wf", "garbage.wf"]) {
      const before = readFileSync(path.join(dir, name));
      const run = runCli(["fmt", "--write", name], { cwd: dir });
      // 2: could not be formatted at all, which is not "would change" (1).
      expect(run.status, name).toBe(2);
      expect(run.stderr, name).toMatch(/could not be formatted/);
      expect(readFileSync(path.join(dir, name)).equals(before), name).toBe(true);
    }
  });

  it("fmt --write leaves a file that is not valid UTF-8 alone, rather than replacing its bytes", () => {
    // Found by this suite: a Latin-1 `é` in a comment parsed (as U+FFFD), and fmt --write
    // wrote the replacement character over the original byte.
    const latin1 = Buffer.concat([Buffer.from("# caf"), Buffer.from([0xe9]), Buffer.from("\ntrigger   start on_demand\ndestination d standalone\nstart -> d\n")]);
    const dir = tempDir({ "latin1.wf": latin1 });
    const run = runCli(["fmt", "--write", "latin1.wf"], { cwd: dir });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/latin1\.wf could not be formatted: it is not valid UTF-8 \(line 1\)/);
    expect(readFileSync(path.join(dir, "latin1.wf")).equals(latin1)).toBe(true);
  });

  it("fmt --write keeps a BOM and CRLF line ends", () => {
    const dir = tempDir({ "a.wf": "\ufefftrigger   start on_demand\r\ndestination d standalone\r\nstart->d\r\n" });
    expect(runCli(["fmt", "--write", "a.wf"], { cwd: dir }).status).toBe(0);
    const text = readFileSync(path.join(dir, "a.wf"), "utf8");
    expect(text.startsWith("\ufefftrigger start on_demand\r\n")).toBe(true);
    expect(text.replaceAll("\r\n", "")).not.toMatch(/[\r\n]/);
  });

  it("compile -o and decompile -o on a broken source leave both the source and an existing output untouched", () => {
    const dir = tempDir({ "broken.wf": broken, "broken.json": '{"schemaVersion": 1, "nodes": [', "out.json": "previous output\n", "out.wf": "previous output\n" });
    for (const [command, source, output] of [["compile", "broken.wf", "out.json"], ["decompile", "broken.json", "out.wf"]] as const) {
      const sourceBefore = readFileSync(path.join(dir, source), "utf8");
      const run = runCli([command, source, "-o", output], { cwd: dir });
      expect(run.status, command).toBe(1);
      expect(run.stderr, command).not.toMatch(/internal error|\n\s+at /);
      expect(readFileSync(path.join(dir, source), "utf8"), command).toBe(sourceBefore);
      expect(readFileSync(path.join(dir, output), "utf8"), command).toBe("previous output\n");
    }
  });

  it("compile of a valid workflow whose literal nests 2,001, 5,000, 10,000 or 100,000 levels: a positioned syntax fault, exit 1, nothing written", () => {
    for (const levels of [2_001, 5_000, 10_000, 100_000]) {
      const literal = `${'{"a": '.repeat(levels)}1${"}".repeat(levels)}`;
      const dir = tempDir({ "deep.wf": `${VALID_WF}gate extra hold with {"ui": [${"[".repeat(levels)}${"]".repeat(levels)}], "more": ${literal}}\n` });
      const run = runCli(["compile", "deep.wf", "-o", "deep.json"], { cwd: dir });
      expect(run.status, String(levels)).toBe(1);
      expect(run.stderr).not.toMatch(/internal error|\n\s+at /);
      // Line 5: `gate extra hold with {"ui": [` is 29 characters; levels 1 and 2 are `{` and the outer `[`.
      expect(run.stderr).toMatch(new RegExp(`error\\[syntax\\]: this value nests arrays and objects more than 2,000 levels deep.*\\n\\s+--> deep\\.wf:5:${29 + 1998 + 1}\\n`));
      expect(() => readFileSync(path.join(dir, "deep.json"))).toThrow();
      // check agrees with compile: the same fault.
      expect(checkFile(dir, "deep.wf").faults.filter((fault) => fault.code === "syntax").map((fault) => fault.range.start)).toEqual([{ line: 5, column: 29 + 1998 + 1 }]);
    }
  });

  it("compile -o refuses a 100,000-level .wf literal with errors (no trigger) and writes nothing", () => {
    const dir = tempDir({ "deep.wf": `node ${"[".repeat(deep)}${"]".repeat(deep)}\n` });
    const run = runCli(["compile", "deep.wf", "-o", "deep.json"], { cwd: dir });
    // The definition has errors (no trigger), so compile refuses it and writes nothing.
    expect(run.status).toBe(1);
    expect(() => readFileSync(path.join(dir, "deep.json"))).toThrow();
  });
});

describe("prototype pollution in the CLI process", () => {
  it("no command changes a built-in prototype on files full of `__proto__` and `constructor` keys", () => {
    const json = '{"__proto__": {"polluted": 1}, "constructor": {"prototype": {"polluted": 2}}, "schemaVersion": 1, "nodes": [{"id": "__proto__", "kind": "trigger", "trigger": {"kind": "on_demand", "__proto__": {"polluted": 3}}}, {"id": "constructor", "kind": "destination", "destination": {"kind": "standalone"}}], "edges": [{"from": "__proto__", "to": "constructor"}]}';
    const wf = 'trigger __proto__ on_demand with {"__proto__": {"polluted": 4}}\ndestination constructor standalone\n__proto__ -> constructor\n';
    const dir = tempDir({ "proto.json": json, "proto.wf": wf });
    writeFileSync(path.join(dir, "wfkit.config.json"), '{"__proto__": {"polluted": 5}}');
    const env = { NODE_OPTIONS: `--import=${pollutionProbe}` };
    const commands = [
      ["check", "proto.json", "proto.wf", "--format", "json"],
      ["check", "proto.json", "--format", "sarif"],
      ["fmt", "proto.wf"],
      ["compile", "proto.wf"],
      ["decompile", "proto.json"],
      ["graph", "proto.wf"],
      ["estimate", "proto.json"],
    ];
    for (const args of commands) {
      const run = runCli(args, { cwd: dir, env });
      expect(run.stderr, args.join(" ")).toMatch(/prototype-probe: unchanged/);
    }
  });
});
