import { describe, expect, it } from "vitest";
import { parse, valueSpanOf, type ChainStatement, type PartStatement, type SubjectStatement } from "@wfkit/dsl";

function messages(text: string): string[] {
  return parse(text).faults.map((diagnostic) => `${diagnostic.range.start.line}:${diagnostic.range.start.character} ${diagnostic.message}`);
}

describe("syntax errors", () => {
  it("say what was expected, in the language's words", () => {
    expect(messages("trigger t on_demand\npart a = pack@1\nt -> a report\n")).toEqual([
      "2:7 expected `,`, `->`, `with` or a new line after `a`, found `report`",
    ]);
    expect(messages("part compare terminal.compare@1\n")).toEqual(["0:13 expected `=`, `{`, `with` or a new line after `compare`, found `terminal.compare`"]);
    expect(messages("compare\n")).toEqual(["0:0 expected `,` or `->` after `compare`, found the end of the file"]);
    expect(messages("-> x\n")).toEqual(["0:0 expected a statement (a declaration such as `part`, or an edge such as `a -> b`), found `->`"]);
    expect(messages("part p = pack@1 { job = x@1 }\n")).toEqual(["0:22 expected a name after `job`, found `=`"]);
    expect(messages("trigger t on_demand { job j@1 }\n")).toEqual([]); // misplaced properties are the compiler's to report
    expect(messages('node {"a": 1,}\n')).toEqual(["0:13 expected a field name in double quotes (JSON allows no comma before `}`) after `,`, found `}`"]);
  });

  it("point at the word before a line end rather than at the line break", () => {
    const [diagnostic] = parse("trigger t on_demand\nt ->\n").faults;
    expect(diagnostic?.range).toEqual({ start: { line: 1, character: 2 }, end: { line: 1, character: 4 } });
  });

  it("do not hide each other: one per broken line, and the lines between still parse", () => {
    const { ast, faults } = parse("part a pack@1\npart b = pack@1\ngate g hold extra\npart c = pack@1 { job }\n");
    expect(faults.map((diagnostic) => diagnostic.range.start.line)).toEqual([0, 2, 3]);
    expect(ast.statements.map((statement) => statement.type)).toEqual(["part", "part", "gate", "part"]);
  });

  it("keep the block read so far when its `}` is missing, and the next statement", () => {
    const { ast, faults } = parse("part x = terminal.profile@1 {\n  job profile.company@1\npart y = pack@1\n");
    expect(faults).toHaveLength(1);
    const [x, y] = ast.statements as PartStatement[];
    expect(x?.block?.properties.map((property) => property.type)).toEqual(["job"]);
    expect(x?.block?.close).toBeUndefined();
    expect(y?.name?.text).toBe("y");
  });

  it("never put tokens invented by recovery into the tree", () => {
    // Recovery inserts the missing `=` (an empty token with no position): the statement
    // reads on, and its span covers only real text.
    const text = 'subject s company "cmp_x" "X"\n';
    const { ast, faults } = parse(text);
    expect(faults.map((diagnostic) => diagnostic.message)).toEqual(["expected `=` after `s`, found `company`"]);
    const subject = ast.statements[0] as SubjectStatement;
    expect(subject.body?.type === "typed" && subject.body.canonicalId?.text).toBe("cmp_x");
    expect(text.slice(subject.start, subject.end)).toBe('subject s company "cmp_x" "X"');
    const chain = parse("a -> , b\n").ast.statements[0] as ChainStatement | undefined;
    for (const group of chain?.groups ?? []) for (const name of group) expect(name.text).not.toBe("");
  });
});

describe("the tree", () => {
  it("has exact spans for every part of a statement", () => {
    const text = 'part compare = terminal.compare@1 { job compare.peers@1 subjects [tesco, "J S"] }';
    const part = parse(text).ast.statements[0] as PartStatement;
    const slice = (span: { start: number; end: number } | undefined) => (span ? text.slice(span.start, span.end) : undefined);
    expect(slice(part)).toBe(text);
    expect(slice(part.name)).toBe("compare");
    expect(slice(part.partId)).toBe("terminal.compare");
    expect(slice(part.version)).toBe("@1");
    expect(slice(part.version && valueSpanOf(part.version))).toBe("1");
    const [job, subjects] = part.block!.properties;
    expect(slice(job)).toBe("job compare.peers@1");
    expect(subjects?.type === "subjects" && subjects.items.map((item) => [item.text, slice(item)])).toEqual([
      ["tesco", "tesco"],
      ["J S", '"J S"'],
    ]);
  });

  it("reads keywords as names wherever a name goes", () => {
    const { ast, faults } = parse('part part = pack@1\ntrigger trigger on_demand\nnode -> part\npart, trigger -> with\n');
    expect(faults).toEqual([]);
    expect(ast.statements.map((statement) => statement.type)).toEqual(["part", "trigger", "chain", "chain"]);
  });

  it("continues a chain on lines that start with `->`", () => {
    const { ast, faults } = parse("a\n  -> b  # why\n\n  -> c\n");
    expect(faults).toEqual([]);
    const chain = ast.statements[0] as ChainStatement;
    expect(chain.groups.map((group) => group.map((name) => name.text))).toEqual([["a"], ["b"], ["c"]]);
  });
});
