import { DSL_CODES, EDITOR_CODES, rules, SUPPRESSION_CODES } from "@wfkit/core";
import { describe, expect, it } from "vitest";
import { closestCode, DSL_CODE_SEVERITY, defaultSeverityOf, knownCodes } from "../src/codes.js";
import { allRuleInfo } from "../../cli/src/rule-info.js";

describe("fault codes", () => {
  it("describe exactly the DSL's codes", () => {
    expect([...DSL_CODE_SEVERITY.keys()].sort()).toEqual(Object.values(DSL_CODES).sort());
  });

  it("take core's severities from the rules themselves", () => {
    for (const rule of rules) expect(defaultSeverityOf(rule.meta.id)).toBe(rule.meta.severity);
    expect(defaultSeverityOf(SUPPRESSION_CODES.unused)).toBe("warning");
    expect(defaultSeverityOf(DSL_CODES.duplicateField)).toBe("warning");
    expect(defaultSeverityOf("no-such-code")).toBeUndefined();
    // Names every object inherits are not codes.
    for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf"]) expect(defaultSeverityOf(name), name).toBeUndefined();
  });

  it("leave out the editor's own codes, which no setting could reach", () => {
    expect(defaultSeverityOf(EDITOR_CODES.catalogueUnusable)).toBeUndefined();
    expect(knownCodes()).not.toContain(EDITOR_CODES.catalogueUnusable);
  });

  it("point a renamed code to its present name", () => {
    expect(closestCode("json-duplicate-key")).toBe("duplicate-field");
    expect(closestCode("dead-ends")).toBe("dead-end");
  });

  it("have help text, a documentation link and a unique id each", () => {
    const infos = allRuleInfo();
    expect(infos.map((info) => info.id)).toEqual(knownCodes());
    expect(new Set(knownCodes()).size).toBe(knownCodes().length);
    for (const info of infos) {
      expect(info.title, info.id).not.toBe("");
      expect(info.fix, info.id).not.toBe("");
      expect(info.helpUri, info.id).toBe(`https://github.com/wfkit/wfkit/blob/main/docs/rules/${info.id}.md`);
    }
  });
});
