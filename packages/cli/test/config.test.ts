import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigResolver, parseConfig } from "../src/config.js";
import { CliError } from "../src/errors.js";
import { tempTree } from "./helpers.js";

const parse = (text: string) => parseConfig(text, "/project/wfkit.config.json", "/project");
const failure = (text: string) => {
  try {
    parse(text);
  } catch (error) {
    expect(error).toBeInstanceOf(CliError);
    return (error as Error).message;
  }
  throw new Error("expected the config to be refused");
};

describe("parseConfig", () => {
  it("reads the catalogue relative to the config, severities and ignores", () => {
    const config = parse('{ // comments are fine\n "catalogue": "cat/parts.json", "severity": {"dead-end": "off", "unknown-field": "error"}, "ignore": ["drafts/**"], }');
    expect(config.catalogue).toBe(path.resolve("/project/cat/parts.json"));
    expect([...config.severity]).toEqual([
      ["dead-end", "off"],
      ["unknown-field", "error"],
    ]);
    expect(config.isIgnored("/project/drafts/a.wf")).toBe(true);
    expect(config.isIgnored("/project/flows/a.wf")).toBe(false);
    expect(config.isIgnored("/elsewhere/drafts/a.wf")).toBe(false);
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
    expect(failure('{"severity": {"dead-end": "ignore"}}')).toBe('wfkit.config.json: `severity.dead-end` must be "off", "warning" or "error" (got "ignore")');
    expect(failure('{"severity": {"dead-ends": "off"}}')).toMatch(/^wfkit\.config\.json: `severity` names `dead-ends`, which is not a wfkit fault code/);
    expect(failure('{"ignores": []}')).toBe("wfkit.config.json: unknown key `ignores` (a config may have: catalogue, severity, ignore)");
    expect(failure('{"ignore": "drafts"}')).toMatch(/`ignore` must be an array/);
    expect(failure('{"catalogue": 3}')).toMatch(/`catalogue` must be the path/);
    expect(failure("[]")).toBe("wfkit.config.json: must hold a JSON object");
  });

  it("gives the line and column of a JSON error", () => {
    expect(failure('{\n  "catalogue": "x"\n  "ignore": []\n}')).toMatch(/^wfkit\.config\.json: 3:3: not valid JSON/);
  });
});

describe("ConfigResolver", () => {
  it("uses the nearest config above a file, and none above the nearest", () => {
    const root = tempTree({
      "wfkit.config.json": '{"severity": {"dead-end": "off"}}',
      "team/wfkit.config.json": '{"severity": {"unknown-field": "off"}}',
      "team/flows/a.wf": "",
      "other/b.wf": "",
    });
    const resolver = new ConfigResolver(root);
    expect([...resolver.configFor(path.join(root, "team/flows/a.wf"))!.severity.keys()]).toEqual(["unknown-field"]);
    expect([...resolver.configFor(path.join(root, "other/b.wf"))!.severity.keys()]).toEqual(["dead-end"]);
  });

  it("uses an explicit config for every file", () => {
    const root = tempTree({ "wfkit.config.json": "{}", "strict.json": '{"severity": {"dead-end": "error"}}' });
    const resolver = new ConfigResolver(root, "strict.json");
    expect(resolver.configFor(path.join(root, "a.wf"))!.severity.get("dead-end")).toBe("error");
  });

  it("fails clearly on a missing explicit config", () => {
    const root = tempTree();
    expect(() => new ConfigResolver(root, "nope.json")).toThrow("nope.json: no such file or directory");
  });
});
