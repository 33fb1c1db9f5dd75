import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { analyzeSource, compileAst, LineIndex, moveOffsets, OFFSET_FIELDS, OFFSET_LIST_FIELDS, offsetAt, offsetsHeldBy, parse, partitionPoint, positionAt } from "@wfkit/dsl";
import { DSL_RUNS } from "./arbitraries.js";

describe("positions", () => {
  it("count lines at \\n, \\r\\n and a lone \\r", () => {
    const text = "ab\r\ncd\ref\ngh";
    expect(positionAt(text, 0)).toEqual({ line: 0, character: 0 });
    expect(positionAt(text, 4)).toEqual({ line: 1, character: 0 }); // c
    expect(positionAt(text, 7)).toEqual({ line: 2, character: 0 }); // e
    expect(positionAt(text, 10)).toEqual({ line: 3, character: 0 }); // g
    expect(positionAt(text, text.length)).toEqual({ line: 3, character: 2 });
    expect(new LineIndex(text).lineCount).toBe(4);
  });

  it("take line starts given as a function, asked for once, on the first use, and not by compiling a valid file", () => {
    const text = 'part a = pack@1\npart b = pack@1\na -> b\n';
    let asked = 0;
    const lines = new LineIndex(text, () => {
      asked++;
      return [0, 16, 32, 39];
    });
    expect(compileAst(parse(text).ast, text, { lines }).faults).toEqual([]);
    expect(asked).toBe(0);
    expect(lines.positionAt(20)).toEqual({ line: 1, character: 4 });
    expect(lines.offsetAt({ line: 2, character: 1 })).toBe(33);
    expect(lines.lineCount).toBe(4);
    expect(asked).toBe(1);
  });

  it("never place a position between the \\r and \\n of a CRLF", () => {
    expect(positionAt("ab\r\ncd", 3)).toEqual({ line: 0, character: 2 });
  });

  it("count a tab as one character and an astral character as two (UTF-16)", () => {
    const text = "\tx📦y";
    expect(positionAt(text, 1)).toEqual({ line: 0, character: 1 }); // x
    expect(positionAt(text, 4)).toEqual({ line: 0, character: 4 }); // y, after the two halves of 📦
    expect(offsetAt(text, { line: 0, character: 4 })).toBe(4);
  });

  it("do not count a leading byte order mark on line 0", () => {
    const text = "\ufeffab\ncd";
    expect(positionAt(text, 1)).toEqual({ line: 0, character: 0 }); // a
    expect(positionAt(text, 2)).toEqual({ line: 0, character: 1 });
    expect(positionAt(text, 4)).toEqual({ line: 1, character: 0 });
    expect(offsetAt(text, { line: 0, character: 0 })).toBe(1);
  });

  it("clamp offsets and positions outside the text", () => {
    const text = "ab\ncd";
    expect(positionAt(text, -5)).toEqual({ line: 0, character: 0 });
    expect(positionAt(text, 99)).toEqual({ line: 1, character: 2 });
    expect(offsetAt(text, { line: 0, character: 99 })).toBe(2); // end of line 0, not into line 1
    expect(offsetAt(text, { line: 9, character: 0 })).toBe(text.length);
  });

  it("offsetAt undoes positionAt at every offset that is a place in a line", () => {
    const text = fc.string({ unit: fc.constantFrom("a", "\t", "\n", "\r", "\r\n", "📦", "é", "\ufeff"), maxLength: 30 });
    fc.assert(
      fc.property(text, (value) => {
        const index = new LineIndex(value);
        for (let offset = 0; offset <= value.length; offset++) {
          const insideCrlf = value[offset - 1] === "\r" && value[offset] === "\n";
          const insideBom = offset === 0 && value.charCodeAt(0) === 0xfeff;
          if (insideCrlf || insideBom) continue;
          expect(index.offsetAt(index.positionAt(offset))).toBe(offset);
        }
      }),
      { numRuns: DSL_RUNS },
    );
  });
});

describe("fault positions in real sources", () => {
  // A BOM, CRLF line ends, a tab, and an emoji before the faulty word on its line.
  const wf = '\ufeff# 📦 packs\r\ntrigger start on_demand\r\n\tpart "📦 pack" = pakc@1\r\ndestination out standalone\r\nstart -> "📦 pack" -> out\r\n';

  it("land on the exact word of a .wf source", () => {
    const analysis = analyzeSource(wf, "wf");
    const fault = analysis.faults.find((candidate) => candidate.code === "part-unknown");
    expect(fault).toBeDefined();
    // Line 2 is `\tpart "📦 pack" = pakc@1`: the tab is 1, the emoji 2 code units.
    expect(fault!.range).toEqual({ start: { line: 2, character: 18 }, end: { line: 2, character: 22 } });
    expect(wf.slice(fault!.span.start, fault!.span.end)).toBe("pakc");
  });

  it("land on the exact value of a .json source", () => {
    const json = '\ufeff{\r\n\t"schemaVersion": 1,\r\n\t"nodes": [{"id": "📦", "partId": "pakc", "partVersion": "1"}],\r\n\t"edges": []\r\n}';
    const analysis = analyzeSource(json, "json");
    const fault = analysis.faults.find((candidate) => candidate.code === "part-unknown");
    expect(fault).toBeDefined();
    // Line 2: tab (1), `"nodes": [{"id": ` (17), `"📦"` (4: the emoji is 2), `, "partId": ` (12).
    expect(fault!.range).toEqual({ start: { line: 2, character: 34 }, end: { line: 2, character: 40 } });
    expect(json.slice(fault!.span.start, fault!.span.end)).toBe('"pakc"');
  });
});

describe("moving a tree's offsets (offsetsHeldBy, moveOffsets)", () => {
  it("moves `start`, `end` and every field the DSL lists as an offset", () => {
    // Built from the lists, so a field added to OFFSET_FIELDS but not to moveOffsets fails here.
    const element: Record<string, unknown> = { start: 10, end: 20, text: "x" };
    for (const [i, field] of OFFSET_FIELDS.entries()) element[field] = 11 + i;
    for (const field of OFFSET_LIST_FIELDS) element[field] = [12, 15];
    moveOffsets(element, offsetsHeldBy(element), 5);
    const expected: Record<string, unknown> = { start: 15, end: 25, text: "x" };
    for (const [i, field] of OFFSET_FIELDS.entries()) expected[field] = 16 + i;
    for (const field of OFFSET_LIST_FIELDS) expected[field] = [17, 20];
    expect(element).toEqual(expected);
  });

  it("touches only the offsets an object holds, and none of an object that holds none", () => {
    const block = { open: 3, close: undefined, properties: [], start: 3, end: 9 };
    moveOffsets(block, offsetsHeldBy(block), -2);
    expect(block).toEqual({ open: 1, close: undefined, properties: [], start: 1, end: 7 });
    expect(Object.keys(block)).toEqual(["open", "close", "properties", "start", "end"]);
    const plain = { text: "x", quoted: false };
    expect(offsetsHeldBy(plain)).toBe(0);
    moveOffsets(plain, 0, 4);
    expect(plain).toEqual({ text: "x", quoted: false });
  });
});

describe("partitionPoint", () => {
  it("finds the first index past the run that satisfies the predicate, as a linear scan does", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -50, max: 50 })), fc.integer({ min: -60, max: 60 }), (values, target) => {
        const sorted = [...values].sort((a, b) => a - b);
        const scanned = sorted.findIndex((value) => value >= target);
        expect(partitionPoint(sorted.length, (i) => sorted[i]! < target)).toBe(scanned < 0 ? sorted.length : scanned);
      }),
      { numRuns: DSL_RUNS },
    );
  });
});
