// Hostile configs and catalogues, through the BUILT CLI (a child process) and the language
// server over stdio: special files never hang or grow (exit 2, one line naming the path and the
// reason), errors say where and what, never the file's content, prototype names are not codes
// or settings, an ignored directory's config is never read, and the editor gives the CLI's
// verdict under a config with comments, severity settings and suppressions.
import { spawnSync } from "node:child_process";
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { MAX_PROJECT_FILE_BYTES } from "@wfkit/project";
import { bin, repoRoot } from "../support/built-cli.js";
import { LspTestClient } from "../support/lsp-client.js";
import { ensureBuilt, tempDir } from "./support.js";

beforeAll(() => ensureBuilt());

const VALID_WF = "trigger start on_demand\ngate floor hold\ndestination inbox standalone\nstart -> floor -> inbox\n";
/** Looks like a GitHub token; must never be printed. */
const TOKEN = "ghp_Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0LmNbVc";

/** The built CLI with a time limit: a read that blocks must fail the test, not hang it. */
function wfkit(args: string[], cwd: string) {
  const result = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: "utf8", timeout: 60_000, env: { PATH: process.env.PATH ?? "" }, maxBuffer: 64 * 1024 * 1024 });
  expect(result.error, `wfkit ${args.join(" ")} did not finish`).toBeUndefined();
  return result;
}

/** Exit 2, exactly one line on stderr, naming `shown` and matching `reason`; nothing on stdout. */
function expectOneLineRefusal(result: ReturnType<typeof wfkit>, shown: string, reason: RegExp): void {
  expect(result.status, result.stderr).toBe(2);
  expect(result.stdout).toBe("");
  expect(result.stderr.split("\n").filter(Boolean), result.stderr).toHaveLength(1);
  expect(result.stderr).toContain(shown);
  expect(result.stderr).toMatch(reason);
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

/** A directory with a valid flow and the special files: a FIFO, a directory, a link to /dev/zero, a file over the limit. */
function specialFiles(): string {
  const dir = tempDir({ "a.wf": VALID_WF });
  execFileSync("mkfifo", [path.join(dir, "fifo.json")]);
  mkdirSync(path.join(dir, "folder.json"));
  symlinkSync("/dev/zero", path.join(dir, "zero.json"));
  writeFileSync(path.join(dir, "huge.json"), "");
  truncateSync(path.join(dir, "huge.json"), MAX_PROJECT_FILE_BYTES + 1);
  return dir;
}

const SPECIAL: [file: string, reason: RegExp][] = [
  ["fifo.json", /not a regular file/],
  ["folder.json", /is a directory/],
  ["zero.json", /not a regular file/],
  ["huge.json", /larger than 16 MiB/],
];

describe("special files as configs and catalogues (CLI)", () => {
  it.each(SPECIAL)("--catalogue %s: exit 2 with one line, at once", (file, reason) => {
    const dir = specialFiles();
    expectOneLineRefusal(wfkit(["check", "a.wf", "--catalogue", file], dir), file, reason);
  });

  it.each(SPECIAL)("a config's catalogue %s: exit 2 with one line", (file, reason) => {
    const dir = specialFiles();
    writeFileSync(path.join(dir, "wfkit.config.json"), JSON.stringify({ catalogue: file }));
    expectOneLineRefusal(wfkit(["check", "a.wf"], dir), file, reason);
  });

  it.each(SPECIAL)("--config %s: exit 2 with one line", (file, reason) => {
    const dir = specialFiles();
    expectOneLineRefusal(wfkit(["check", "a.wf", "--config", file], dir), file, reason);
  });

  it.each([
    ["a FIFO", (at: string) => execFileSync("mkfifo", [at]), /not a regular file/],
    ["a directory", (at: string) => mkdirSync(at), /is a directory/],
    ["a link to /dev/zero", (at: string) => symlinkSync("/dev/zero", at), /not a regular file/],
  ] as const)("a wfkit.config.json that is %s: exit 2 with one line", (_name, make, reason) => {
    const dir = tempDir({ "a.wf": VALID_WF });
    make(path.join(dir, "wfkit.config.json"));
    expectOneLineRefusal(wfkit(["check", "a.wf"], dir), "wfkit.config.json", reason);
  });
});

describe("errors say where and what, never the content (CLI)", () => {
  const catalogues: [name: string, text: string, place: RegExp][] = [
    ["not JSON at all", `token=${TOKEN}\n`, /secret\.txt:1:1: the catalogue is not valid JSON \(\w+\)$/],
    ["JSON with the token after a mistake", `{\n  "token": "${TOKEN}",\n}`, /secret\.txt:3:1: the catalogue is not valid JSON \(\w+\)$/],
    ["a JSON object that is not a catalogue", `{"token": "${TOKEN}"}`, /secret\.txt:1:1: not a valid catalogue: /],
    ["the token as a key", `{"parts": [], "${TOKEN}": 1}`, /secret\.txt:1:1: not a valid catalogue: /],
    ["the token as a wrong-typed part", `{"catalogueVersion": 1, "parts": ["${TOKEN}"]}`, /secret\.txt:1:35: not a valid catalogue: this value must be an object$/],
  ];
  it.each(catalogues)("a catalogue that is %s", (_name, text, place) => {
    const dir = tempDir({ "a.wf": VALID_WF, "secret.txt": text });
    for (const args of [["check", "a.wf", "--catalogue", "secret.txt"], ["compile", "a.wf", "--catalogue", "secret.txt"]]) {
      const result = wfkit(args, dir);
      expect(result.status).toBe(2);
      expect(result.stdout + result.stderr).not.toContain(TOKEN);
      expect(result.stderr.trim()).toMatch(place);
    }
  });

  const configs: [name: string, text: string, place: RegExp][] = [
    ["not JSON", `TOKEN=${TOKEN}\n`, /secret\.json:1:1: not valid JSON/],
    ["a token as a value", `{\n  // the old key\n  "token": "${TOKEN}"\n}`, /secret\.json:3:3: unknown key `token`/],
    ["a token as a key", `{"${TOKEN}": true}`, /secret\.json:1:2: unknown key a key /],
    ["a token as a severity", `{"severity": {"dead-end": "${TOKEN}"}}`, /secret\.json:1:27: `severity.dead-end` must be "off", "warning" or "error"$/],
    ["a token as a code", `{"severity": {"${TOKEN}": "off"}}`, /secret\.json:1:15: `severity` names a key, which is not a wfkit fault code/],
  ];
  it.each(configs)("a config that is %s", (_name, text, place) => {
    const dir = tempDir({ "a.wf": VALID_WF, "secret.json": text });
    const result = wfkit(["check", "a.wf", "--config", "secret.json"], dir);
    expect(result.status).toBe(2);
    expect(result.stdout + result.stderr).not.toContain(TOKEN);
    expect(result.stderr.trim()).toMatch(place);
  });
});

describe("prototype names in configs and suppressions (CLI)", () => {
  it.each(["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf"])("severity naming `%s` is a usage error, not a setting", (name) => {
    const dir = tempDir({ "a.wf": VALID_WF, "wfkit.config.json": `{"severity": {"${name}": "off"}}` });
    const result = wfkit(["check", "a.wf"], dir);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`\`severity\` names \`${name}\`, which is not a wfkit fault code`);
  });

  it("suggests the code a near miss meant", () => {
    const dir = tempDir({ "a.wf": VALID_WF, "wfkit.config.json": '{"severity": {"dead_end": "off"}}' });
    expect(wfkit(["check", "a.wf"], dir).stderr).toContain("did you mean `dead-end`?");
  });

  it.each(["__proto__", "constructor", "prototype"])("a catalogue under `%s` is not honoured: the key is refused", (key) => {
    // The catalogue it names would make `pack` unknown; honoured or not, the key must be refused.
    const dir = tempDir({ "a.wf": VALID_WF, "cat.json": '{"parts": []}', "wfkit.config.json": `{"${key}": {"catalogue": "cat.json"}}` });
    const result = wfkit(["check", "a.wf"], dir);
    expect(result.status).toBe(2);
    expect(result.stderr.trim()).toBe(`wfkit: wfkit.config.json:1:2: unknown key \`${key}\` (a config may have: catalogue, severity, ignore, baseUrl)`);
  });

  it("suppressions naming inherited names are not wfkit codes", () => {
    const wf = VALID_WF.replace("gate floor hold\n", "gate floor hold  # wfkit-ignore constructor, toString, __proto__: none of these is a code\n");
    const dir = tempDir({ "a.wf": wf, "wfkit.config.json": "{}" });
    const result = wfkit(["check", "a.wf", "--format", "json"], dir);
    const faults = (JSON.parse(result.stdout) as { files: { faults: { code: string; message: string }[] }[] }).files[0]!.faults;
    expect(faults.map((fault) => [fault.code, fault.message])).toEqual(
      ["constructor", "toString", "__proto__"].map((name) => ["unused-suppression", `\`${name}\` is not a wfkit fault code, so this suppression does nothing; correct or remove it`]),
    );
  });
});

describe("an ignored directory's config is never read (CLI)", () => {
  const tree = () => {
    const dir = tempDir({ "a.wf": VALID_WF });
    mkdirSync(path.join(dir, "fixtures"));
    writeFileSync(path.join(dir, "fixtures", "wfkit.config.json"), '{"severity": {"cycle": "off"}}');
    writeFileSync(path.join(dir, "fixtures", "b.wf"), VALID_WF);
    execFileSync("mkfifo", [path.join(dir, "fixtures", "deeper.wfkit.config.json")]);
    return dir;
  };

  it("a broken nested config stops a run that includes it", () => {
    expect(wfkit(["check"], tree()).status).toBe(2);
  });

  it.each([
    ["--ignore of the directory", ["--ignore", "fixtures"]],
    ["--ignore of its contents", ["--ignore", "fixtures/**"]],
  ])("%s leaves it unread", (_name, flags) => {
    const result = wfkit(["check", ...flags], tree());
    expect(result.status, result.stderr).toBe(0);
  });

  it.each([["fixtures/**"], ["fixtures"], ["**/fixtures"]])("a config's ignore %s leaves it unread, in check, fmt and estimate", (pattern) => {
    const dir = tree();
    writeFileSync(path.join(dir, "wfkit.config.json"), `{ /* broken on purpose */ "ignore": ["${pattern}"] }`);
    expect(wfkit(["check"], dir).status).toBe(0);
    expect(wfkit(["fmt", "--check", "."], dir).status).toBe(0);
    expect(wfkit(["estimate", "."], dir).status).toBe(0);
  });

  it("`wfkit check` at this repository's root gives a verdict (0 or 1), never 2", () => {
    const result = wfkit(["check", "--format", "json"], repoRoot);
    expect([0, 1], result.stderr).toContain(result.status);
    expect(result.stderr).toBe("");
  });
});

describe("the editor gives the CLI's verdict (language server over stdio)", () => {
  let client: LspTestClient | undefined;
  afterEach(async () => {
    client?.kill();
    client = undefined;
  });

  const FLOW = [
    "trigger start on_demand",
    "gate floor hold",
    "part spare = pack@1  # wfkit-ignore dead-end: a spare for the next release",
    "# wfkit-ignore unknown-field, toString: reasons given",
    'part extra = pack@1 with {"colour": "red"}',
    "part lonely = pack@1",
    "destination inbox standalone",
    "start -> floor -> inbox",
    "floor -> spare",
    "floor -> extra",
    "floor -> lonely",
    "",
  ].join("\n");

  /** The CLI's faults for `file` in `dir` as (code, severity, 0-based range start) triples. */
  function cliFaults(dir: string, file: string): [string, string, number, number][] {
    const result = wfkit(["check", file, "--format", "json"], dir);
    const report = JSON.parse(result.stdout) as { files: { faults: { code: string; severity: string; range: { start: { line: number; column: number } } }[] }[] };
    return report.files[0]!.faults.map((fault) => [fault.code, fault.severity, fault.range.start.line - 1, fault.range.start.column - 1]);
  }

  async function editorFaults(dir: string, file: string): Promise<[string, string, number, number][]> {
    client = await LspTestClient.start({ rootUri: pathToFileURL(dir).href });
    const uri = pathToFileURL(path.join(dir, file)).href;
    await client.open(uri, FLOW);
    const { diagnostics } = await client.diagnostics(uri, 1);
    return diagnostics.map((d) => [String(d.code), d.severity === 1 ? "error" : "warning", d.range.start.line, d.range.start.character]);
  }

  it.each([
    ["no config", undefined],
    ["a config with comments and severity settings", '{\n  // the documented example has comments\n  "severity": { "dead-end": "error", "unknown-field": "off", }, /* trailing comma too */\n}'],
    ["a config turning a suppression fault off", '{ "severity": { "unused-suppression": "off" } }'],
  ])("%s: the same faults as `wfkit check`", async (_name, config) => {
    const dir = tempDir({ "flow.wf": FLOW });
    if (config !== undefined) writeFileSync(path.join(dir, "wfkit.config.json"), config);
    const expected = cliFaults(dir, "flow.wf");
    // Suppressions did something: `spare`'s dead end is gone, `toString` is reported.
    expect(expected.some(([code]) => code === "unused-suppression") || config?.includes("unused-suppression")).toBe(true);
    expect(await editorFaults(dir, "flow.wf")).toEqual(expected);
  });

  it("a document in an ignored folder: the broken config there is not read, and the verdict is `wfkit check -`'s", async () => {
    const dir = tempDir({ "wfkit.config.json": '{ // fixtures are broken on purpose\n "ignore": ["fixtures/**"], "severity": {"dead-end": "error"} }' });
    mkdirSync(path.join(dir, "fixtures"));
    writeFileSync(path.join(dir, "fixtures", "wfkit.config.json"), '{"severity": {"cycle": "off"}}');
    const cli = spawnSync(process.execPath, [bin, "check", "-", "--stdin-filename", "fixtures/flow.wf", "--format", "json"], { cwd: dir, input: FLOW, encoding: "utf8", timeout: 60_000 });
    expect(cli.status, cli.stderr).toBe(1);
    const report = JSON.parse(cli.stdout) as { files: { faults: { code: string; severity: string; range: { start: { line: number; column: number } } }[] }[] };
    const expected = report.files[0]!.faults.map((fault) => [fault.code, fault.severity, fault.range.start.line - 1, fault.range.start.column - 1]);
    expect(expected).toContainEqual(["dead-end", "error", 4, 5]);
    expect(await editorFaults(dir, "fixtures/flow.wf")).toEqual(expected);
  });

  it.each([
    ["a FIFO config", (dir: string) => execFileSync("mkfifo", [path.join(dir, "wfkit.config.json")]), /wfkit\.config\.json: is not a regular file/],
    ["a catalogue on /dev/zero", (dir: string) => writeFileSync(path.join(dir, "wfkit.config.json"), '{"catalogue": "/dev/zero"}'), /\/dev\/zero: cannot read the catalogue: is not a regular file/],
    ["a catalogue holding a token", (dir: string) => {
      writeFileSync(path.join(dir, "secret.txt"), `token=${TOKEN}`);
      writeFileSync(path.join(dir, "wfkit.config.json"), '{"catalogue": "secret.txt"}');
    }, /secret\.txt:1:1: the catalogue is not valid JSON/],
    ["a catalogue under __proto__", (dir: string) => writeFileSync(path.join(dir, "wfkit.config.json"), '{"__proto__": {"catalogue": "/dev/zero"}}'), /wfkit\.config\.json:1:2: unknown key `__proto__`/],
    ["severity for toString", (dir: string) => writeFileSync(path.join(dir, "wfkit.config.json"), '{"severity": {"toString": "off"}}'), /`severity` names `toString`, which is not a wfkit fault code/],
  ] as const)("%s: a warning on the document, at once, never the content", async (_name, make, message) => {
    const dir = tempDir({ "flow.wf": FLOW });
    make(dir);
    client = await LspTestClient.start({ rootUri: pathToFileURL(dir).href });
    const uri = pathToFileURL(path.join(dir, "flow.wf")).href;
    await client.open(uri, FLOW);
    const { diagnostics } = await client.diagnostics(uri, 1);
    expect(diagnostics[0]).toMatchObject({ code: "catalogue-unusable", severity: 2 });
    expect(diagnostics[0]!.message).toMatch(message);
    expect(JSON.stringify(diagnostics)).not.toContain(TOKEN);
    // The server still answers.
    expect(await client.request("textDocument/documentSymbol", { textDocument: { uri } })).toBeInstanceOf(Array);
  });
});
