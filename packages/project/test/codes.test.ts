import { DSL_CODES } from "@wfkit/dsl";
import { rules } from "@wfkit/core";
import { describe, expect, it } from "vitest";
import { DSL_CODE_SEVERITY, defaultSeverityOf, knownCodes, SUPPRESSION_CODES } from "../src/codes.js";
import { allRuleInfo } from "../../cli/src/rule-info.js";

describe("fault codes", () => {
  it("describe exactly the DSL's codes", () => {
    expect([...DSL_CODE_SEVERITY.keys()].sort()).toEqual(Object.values(DSL_CODES).sort());
  });

  it("take core's severities from the rules themselves", () => {
    for (const rule of rules) expect(defaultSeverityOf(rule.meta.id)).toBe(rule.meta.severity);
    expect(defaultSeverityOf(SUPPRESSION_CODES.unused)).toBe("warning");
    expect(defaultSeverityOf("no-such-code")).toBeUndefined();
    // Names every object inherits are not codes.
    for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf"]) expect(defaultSeverityOf(name), name).toBeUndefined();
  });

  it("have help text, a documentation link and a unique id each", () => {
    const infos = allRuleInfo();
    expect(infos.map((info) => info.id)).toEqual(knownCodes());
    expect(new Set(knownCodes()).size).toBe(knownCodes().length);
    for (const info of infos) {
      expect(info.title, info.id).not.toBe("");
      expect(info.fix, info.id).not.toBe("");
      expect(info.helpUri, info.id).toMatch(/^https:\/\//);
    }
  });
});
