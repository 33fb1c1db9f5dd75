/**
 * The lexical table and what derives from it: quoting by the one name pattern, the grammar's
 * expectations at a cursor (completion), and the table's agreement with the syntax tree.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { tokenMatcher } from "chevrotain";
import { BLOCKS, compile, expectedAt, headOf, isBareName, KEYWORD_TEXTS, NAME_PATTERN, numberedSteps, parse, printName, PROPERTIES, STATEMENTS, TYPED_SUBJECT, type Expected, type Step } from "@wfkit/dsl";
import { lex, Name } from "../src/lexer.js";
import { numRuns } from "../../../test/support/num-runs.js";

/** The answer for `text`, without the fields a case does not mention. */
const at = (text: string): Partial<Expected> => {
  const { wordStart, keywords, role, versionOf, nearby, partId } = expectedAt(text);
  return Object.fromEntries(Object.entries({ wordStart, keywords, role, versionOf, nearby, partId }).filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0)));
};

describe("quoting", () => {
  it("writes a name bare exactly when the lexer reads it back as one name, keywords included", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 8 }), fc.stringMatching(/^[A-Za-z_.\-0-9]{1,8}$/), fc.constantFrom(...KEYWORD_TEXTS)), (name) => {
        const printed = printName(name);
        const tokens = lex(printed).tokens;
        const readAsOneName = tokens.length === 1 && tokens[0]!.image === name && tokenMatcher(tokens[0]!, Name);
        expect(printed === name).toBe(isBareName(name));
        if (isBareName(name)) expect(readAsOneName, printed).toBe(true);
        else expect(JSON.parse(printed)).toBe(name);
      }),
      { numRuns: numRuns(300) },
    );
  });

  it("has one rule for every keyword: `with` is written bare like any other and reads back as the same name", () => {
    expect(printName("with")).toBe("with");
    const { ast, faults } = parse("gate g with\ngate h with with {}\nworkflow with\n");
    expect(faults).toEqual([]);
    expect(ast.statements.map((s) => (s.type === "gate" ? [s.belowFloor?.text, s.with !== undefined] : s.type === "workflow" ? [s.name?.text] : []))).toEqual([["with", false], ["with", true], ["with"]]);
  });

  it("matches the name pattern only whole", () => {
    expect(isBareName("terminal.compare-2")).toBe(true);
    for (const name of ["a..b", "a-", "1a", "café", "a b", ""]) expect(isBareName(name), name).toBe(false);
    expect(NAME_PATTERN.flags).toBe("");
  });
});

describe("the table", () => {
  it("lists every keyword once, and each block's properties among the properties", () => {
    expect(new Set(KEYWORD_TEXTS).size).toBe(KEYWORD_TEXTS.length);
    for (const word of [...Object.keys(STATEMENTS), ...Object.keys(PROPERTIES)]) expect(KEYWORD_TEXTS).toContain(word);
    for (const { properties } of Object.values(BLOCKS)) for (const property of properties) expect(Object.keys(PROPERTIES)).toContain(property);
  });

  it("begins every group of steps with `=`, by which the fast parser decides it, and fills each field once", () => {
    const rows: (readonly Step[])[] = [...Object.values(STATEMENTS).map((entry) => entry.steps), ...Object.values(PROPERTIES).map((entry) => entry.steps), TYPED_SUBJECT];
    for (const steps of rows) {
      for (const step of numberedSteps(steps)) if (step.read === "group") expect(step.steps[0]?.read).toBe("equals");
      const keys = numberedSteps(steps).flatMap((step) => ("key" in step && step.key ? [step.key] : []));
      expect(new Set(keys).size).toBe(keys.length);
    }
  });

  it("gives each declaration's line from its steps, and none to a statement that declares nothing", () => {
    expect(headOf(STATEMENTS.part.steps)).toBe("node (= part-id)?");
    expect(headOf(STATEMENTS.subject.steps)).toBe("subject = subject-kind");
    expect(headOf(STATEMENTS.gate.steps)).toBe("node below-floor?");
    expect(headOf(STATEMENTS.workflow.steps)).toBe("");
    expect(headOf(STATEMENTS.node.steps)).toBe("");
  });

  it("reports a misplaced property, and a line that begins none, in the table's words", () => {
    const misplaced = compile("part p = pack@1 {\n  schedule x\n}\n").faults.map((d) => d.message);
    expect(misplaced).toContainEqual(expect.stringMatching(/^`schedule` does not belong in a part block .* which holds `job`, `subjects` and `with`$/));
    const junk = parse("trigger t scheduled { nonsense }\n").faults.map((d) => d.message);
    expect(junk).toEqual(["expected `schedule`, `timezone`, `with` or `}` in a trigger block, found `nonsense`"]);
  });

  it("goes on with a block on a line that begins a property that begins no statement, whatever the block", () => {
    // `scope` belongs in a version block only, but does not end a part block: the compiler says where it belongs.
    const { faults } = compile("part p = pack@1 {\n  scope with {}\n}\n");
    expect(faults.map((d) => d.message)).toContainEqual(expect.stringMatching(/^`scope` does not belong in a part block/));
    // `trigger` begins a statement too: outside a version block it ends the block left open.
    const open = parse("part p = pack@1 {\n  job x\ntrigger t on_demand\n");
    expect(open.ast.statements.map((s) => s.type)).toEqual(["part", "trigger"]);
  });
});

describe("expectedAt: what the grammar takes at the cursor", () => {
  it("offers the statement keywords and node names where a statement begins", () => {
    const statements = Object.keys(STATEMENTS).sort();
    const sorted = (expected: Partial<Expected>) => ({ ...expected, keywords: [...expected.keywords!].sort() });
    expect(sorted(at(""))).toEqual({ wordStart: 0, keywords: statements, role: "edge-source" });
    expect(sorted(at("trigger start on_demand\n\npa"))).toEqual({ wordStart: 25, keywords: statements, role: "edge-source" });
  });

  it("offers in a block only the properties its kind holds", () => {
    expect(at("part p = pack@1 {\n  ").keywords).toEqual([...BLOCKS.part.properties]);
    expect(at("trigger t scheduled {\n  ").keywords).toEqual([...BLOCKS.trigger.properties]);
    expect(at("version {\n  trigger scheduled { ").keywords).toEqual([...BLOCKS.trigger.properties]);
    expect([...at("version {\n  ").keywords!].sort()).toEqual([...BLOCKS.version.properties].sort());
    // After a whole property another may follow on the same line.
    expect(at("part p = pack@1 { job x@1 ").keywords).toEqual([...BLOCKS.part.properties]);
  });

  it("says what a name at the cursor stands for", () => {
    expect(at("part x = ter")).toEqual({ wordStart: 9, role: "part-id" });
    expect(at("part x = terminal.")).toEqual({ wordStart: 9, role: "part-id" });
    expect(at("trigger t ").role).toBe("trigger-kind");
    expect(at("destination d ").role).toBe("destination-kind");
    expect(at("version {\n  destination ").role).toBe("destination-kind");
    expect(at("gate g ").role).toBe("below-floor");
    expect(at("subject s = ").role).toBe("subject-kind");
    expect(at("trigger t scheduled { timezone ").role).toBe("timezone");
    expect(at('subject s = company "cmp_')).toEqual({ wordStart: 20, role: "canonical-id" });
  });

  it("gives the part of a job and the part or job of a version being typed", () => {
    expect(at("part s = terminal.screen@2 {\n  job ")).toEqual({ wordStart: 35, role: "job", partId: "terminal.screen" });
    expect(at("part x = pack@1.")).toEqual({ wordStart: 14, versionOf: { role: "part-id", name: "pack", start: 9 }, partId: "pack" });
    expect(at('part s = "terminal.screen"@2 {\n  job screen.im@').versionOf).toEqual({ role: "job", name: "screen.im", start: 37 });
  });

  it("gives an edge target's sources and a list's names so far", () => {
    expect(at("a -> b, c -> ")).toEqual({ wordStart: 13, role: "edge-target", nearby: ["b", "c"] });
    expect(at('a -> b\n  -> c, "d e", ')).toEqual({ wordStart: 22, role: "edge-target", nearby: ["b"] });
    const list = "part c = x@1 {\n  subjects [a,\n  b, ";
    expect(at(list)).toEqual({ wordStart: list.length, role: "subject-ref", nearby: ["a", "b"], partId: "x" });
  });

  it("offers nothing in a comment, and reads only the statement being written", () => {
    expect(at("part x = # pa")).toEqual({ wordStart: "part x = # ".length });
    const after = 'part x = pack@1 {\n  job "a\n}\nb -> ';
    expect(at(after)).toEqual({ wordStart: after.length, role: "edge-target", nearby: ["b"] });
  });

  it("answers on long statements from their last part", () => {
    const chain = Array.from({ length: 5_000 }, (_, i) => `n${i}`).join(" -> ");
    expect(at(`${chain} -> `)).toEqual({ wordStart: chain.length + 4, role: "edge-target", nearby: ["n4999"] });
    const block = `version {\n${'  destination standalone { with {"a": [1, {"b": null}]} }\n'.repeat(2_000)}  `;
    expect([...at(block).keywords!].sort()).toEqual([...BLOCKS.version.properties].sort());
    // A list of 10,000 tokens on one line: too long to explore, and nothing to offer in JSON anyway.
    const literal = `node {"a": [${"1, ".repeat(5_000)}`;
    expect(at(literal)).toEqual({ wordStart: literal.length });
  });
});
