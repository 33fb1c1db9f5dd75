import path from "node:path";
import { describe, expect, it } from "vitest";
import { configFromText, describeFileProblem, ProjectError, ProjectResolver } from "../src/index.js";
import { tempTree } from "../../../test/support/temp-tree.js";

const parse = (text: string) => configFromText(text, "/project/wfkit.config.json");
const failure = (text: string) => {
  try {
    parse(text);
  } catch (error) {
    expect(error).toBeInstanceOf(ProjectError);
    return describeFileProblem((error as ProjectError).problem, "wfkit.config.json");
  }
  throw new Error("expected the config to be refused");
};
const resolverAt = (root: string, explicitConfig?: string) => new ProjectResolver({ cwd: root, explicitConfig: explicitConfig && path.join(root, explicitConfig) });

describe("configFromText", () => {
  it("reads the catalogue relative to the config, severities and ignores", () => {
    const config = parse('{ // comments are fine\n "catalogue": "cat/parts.json", "severity": {"dead-end": "off", "unknown-field": "error"}, "ignore": ["drafts/**"], }');
    expect(config.catalogue).toBe(path.resolve("/project/cat/parts.json"));
    expect([...config.severity]).toEqual([
      ["dead-end", "off"],
      ["unknown-field", "error"],
    ]);
    expect(config.ignores("/project/drafts/a.wf")).toBe(true);
    expect(config.ignores("/project/flows/a.wf")).toBe(false);
    expect(config.ignores("/elsewhere/drafts/a.wf")).toBe(false);
  });

  it("refuses to turn off or lower an error, saying why", () => {
    expect(failure('{"severity": {"cycle": "off"}}')).toMatch(/`cycle` is an error.*service refuses/);
    expect(failure('{"severity": {"json-syntax": "warning"}}')).toMatch(/json-syntax/);
  });

  it("accepts setting an error to error (a no-op)", () => {
    expect(parse('{"severity": {"cycle": "error"}}').severity.get("cycle")).toBe("error");
  });

  it("lets the CLI's own warnings be configured", () => {
    expect(parse('{"severity": {"suppression-without-reason": "off"}}').severity.get("suppression-without-reason")).toBe("off");
  });

  it("names what is wrong, with the file", () => {
    expect(failure('{"severity": {"dead-end": "ignore"}}')).toBe('wfkit.config.json:1:27: `severity.dead-end` must be "off", "warning" or "error"');
    expect(failure('{"severity": {"dead-ends": "off"}}')).toMatch(/^wfkit\.config\.json:1:15: `severity` names `dead-ends`, which is not a wfkit fault code; did you mean `dead-end`\?/);
    expect(failure('{"ignores": []}')).toBe("wfkit.config.json:1:2: unknown key `ignores`; did you mean `ignore`? (a config may have: catalogue, severity, ignore, baseUrl)");
    expect(failure('{"ignore": "drafts"}')).toMatch(/`ignore` must be an array/);
    expect(failure('{"catalogue": 3}')).toMatch(/`catalogue` must be the path/);
    expect(failure("[]")).toBe("wfkit.config.json:1:1: must hold a JSON object");
  });

  it("reads baseUrl, an http(s) address without query, fragment or credentials", () => {
    expect(parse('{"baseUrl": "http://127.0.0.1:8787"}').baseUrl).toBe("http://127.0.0.1:8787");
    for (const bad of ['"ftp://example.test"', '"example.test"', '"https://example.test/?a=1"', '"https://user:pw@example.test"', "3"])
      expect(failure(`{"baseUrl": ${bad}}`)).toMatch(/^wfkit\.config\.json:1:13: `baseUrl` must be the http or https address/);
  });

  it("gives the line and column of a JSON error", () => {
    expect(failure('{\n  "catalogue": "x"\n  "ignore": []\n}')).toMatch(/^wfkit\.config\.json:3:3: not valid JSON/);
  });
});

describe("ProjectResolver", () => {
  it("uses the nearest config above a file, and none above the nearest", () => {
    const root = tempTree({
      "wfkit.config.json": '{"severity": {"dead-end": "off"}}',
      "team/wfkit.config.json": '{"severity": {"unknown-field": "off"}}',
      "team/flows/a.wf": "",
      "other/b.wf": "",
    });
    const resolver = resolverAt(root);
    expect([...resolver.configFor(path.join(root, "team/flows/a.wf"))!.severity.keys()]).toEqual(["unknown-field"]);
    expect([...resolver.configFor(path.join(root, "other/b.wf"))!.severity.keys()]).toEqual(["dead-end"]);
  });

  it("uses an explicit config for every file", () => {
    const root = tempTree({ "wfkit.config.json": "{}", "strict.json": '{"severity": {"dead-end": "error"}}' });
    const resolver = resolverAt(root, "strict.json");
    expect(resolver.configFor(path.join(root, "a.wf"))!.severity.get("dead-end")).toBe("error");
  });

  it("fails clearly on a missing explicit config", () => {
    const root = tempTree();
    expect(() => resolverAt(root, "nope.json")).toThrow(/nope\.json: no such file or directory/);
  });
});

describe("ProjectResolver ignores", () => {
  const brokenFixtures = () =>
    tempTree({
      "wfkit.config.json": '{"ignore": ["fixtures/**"]}',
      "fixtures/wfkit.config.json": '{"severity": {"cycle": "off"}}',
      "fixtures/deeper/a.wf": "",
      "flows/b.wf": "",
    });

  it("never reads a config inside an ignored directory", () => {
    const root = brokenFixtures();
    const resolver = resolverAt(root);
    expect(resolver.isIgnoredDirectory(path.join(root, "fixtures"))).toBe(true);
    expect(resolver.isIgnored(path.join(root, "fixtures/deeper/a.wf"))).toBe(true);
    expect(resolver.isIgnored(path.join(root, "flows/b.wf"))).toBe(false);
    // A file named in the ignored directory (standard input's name) gets the config above it.
    expect(resolver.configFor(path.join(root, "fixtures/deeper/a.wf"))!.path).toBe(path.join(root, "wfkit.config.json"));
  });

  it("never ignores a directory that holds the working directory, so its own config applies", () => {
    const root = tempTree({ "wfkit.config.json": '{"ignore": ["fixtures/**"]}', "fixtures/wfkit.config.json": '{"severity": {"dead-end": "off"}}', "fixtures/deeper/a.wf": "" });
    const resolver = new ProjectResolver({ cwd: path.join(root, "fixtures/deeper") });
    expect(resolver.isIgnored(path.join(root, "fixtures/deeper/a.wf"))).toBe(false);
    expect(resolver.configFor(path.join(root, "fixtures/deeper/a.wf"))!.path).toBe(path.join(root, "fixtures/wfkit.config.json"));
  });

  it("applies --ignore patterns to directories before reading their configs", () => {
    const root = tempTree({ "fixtures/wfkit.config.json": "not json", "fixtures/a.wf": "" });
    const resolver = new ProjectResolver({ cwd: root, ignorePatterns: ["fixtures"] });
    expect(resolver.isIgnored(path.join(root, "fixtures/a.wf"))).toBe(true);
    expect(() => new ProjectResolver({ cwd: root }).isIgnored(path.join(root, "fixtures/a.wf"))).toThrow(/not valid JSON/);
  });

  it("reads an inherited-looking key as an unknown key, never as a setting", () => {
    for (const key of ["__proto__", "constructor", "toString"]) {
      expect(failure(`{"${key}": {"catalogue": "x.json"}}`)).toBe(`wfkit.config.json:1:2: unknown key \`${key}\` (a config may have: catalogue, severity, ignore, baseUrl)`);
      expect(failure(`{"severity": {"${key}": "off"}}`)).toMatch(new RegExp(`^wfkit\\.config\\.json:1:15: \`severity\` names \`${key}\`, which is not a wfkit fault code`));
    }
  });
});
