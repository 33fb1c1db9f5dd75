import { describe, expect, it } from "vitest";
import { collectSymbols, parse } from "@wfkit/dsl";

describe("the symbol index", () => {
  const text = [
    'subject tesco = company "cmp_tesco" "Tesco PLC"',
    "trigger start on_demand",
    "part compare = terminal.compare@1 { job compare.peers@1 subjects [tesco, tesco] }",
    'node {"id": "raw", "kind": "gate"}',
    "start -> compare -> raw",
    'edge {"from": "raw", "to": "start"}',
  ].join("\n");
  const symbols = collectSymbols(parse(text).ast);
  const slice = (span: { start: number; end: number }) => text.slice(span.start, span.end);

  it("lists declarations of nodes and subjects with their name spans", () => {
    expect(symbols.declarations.map((declaration) => [declaration.kind, declaration.name, slice(declaration.span), declaration.detail])).toEqual([
      ["subject", "tesco", "tesco", 'company "cmp_tesco" "Tesco PLC"'],
      ["node", "start", "start", "trigger on_demand"],
      ["node", "compare", "compare", "terminal.compare@1"],
      ["node", "raw", '"raw"', "node (JSON)"],
    ]);
  });

  it("lists references, including those inside JSON edges", () => {
    expect(symbols.referencesTo("subject", "tesco")).toHaveLength(2);
    expect(symbols.referencesTo("node", "start").map((reference) => reference.inJson)).toEqual([false, true]);
    expect(symbols.referencesTo("node", "raw").map((reference) => slice(reference.span))).toEqual(["raw", '"raw"']);
  });

  it("finds the symbol under a cursor, its end included", () => {
    const offset = text.indexOf("compare -> raw");
    expect(symbols.symbolAt(offset + "compare".length)).toMatchObject({ kind: "node", name: "compare", isDeclaration: false });
    expect(symbols.symbolAt(text.indexOf("tesco ="))).toMatchObject({ kind: "subject", isDeclaration: true });
    expect(symbols.symbolAt(text.indexOf("on_demand") + 2)).toBeUndefined();
    expect(symbols.names("node")).toEqual(["start", "compare", "raw"]);
  });
});
