// The CLI's JSON report of very many faults. A million faults (10^6 duplicate edges) make about
// 800 MB of indented JSON, more than one JavaScript string can hold: `wfkit check` ended in
// "internal error: Invalid string length". The report is now made and written in pieces;
// these tests pin that the pieces are small and form exactly the one document.
import { describe, expect, it } from "vitest";
import { formatJsonChunks, jsonFault } from "../../packages/cli/src/formats/json.js";
import type { CheckReport, Diagnostic } from "../../packages/cli/src/report.js";

function fault(i: number): Diagnostic {
  return {
    code: "edge-duplicate",
    severity: "error",
    message: `Edge ${i} repeats edge 0 (\`a\` → \`b\`), "quoted" and \\ escaped; remove it.`,
    nodeId: "b",
    pointer: `/edges/${i}`,
    range: { start: { line: 0, character: i }, end: { line: 0, character: i + 3 } },
    related: [{ nodeId: "b", pointer: "/edges/0", message: "first here", range: { start: { line: 0, character: 1 }, end: { line: 0, character: 4 } } }],
  } as Diagnostic;
}

const report: CheckReport = {
  files: [
    { path: "many.json", ok: false, faults: Array.from({ length: 20_000 }, (_, i) => fault(i + 1)) },
    { path: "clean.wf", ok: true, faults: [], estimate: { costMinorUnits: 0, parts: [] } },
    { path: 'odd "name".json', ok: false, faults: [fault(7)] },
  ],
  summary: { files: 3, errors: 20_001, warnings: 0 },
};

/** The document as JSON.stringify writes it in one piece (formatJson's definition before the pieces). */
function oneString(value: CheckReport): string {
  const document = { version: 1, files: value.files.map((file) => ({ path: file.path, ok: file.ok, faults: file.faults.map(jsonFault), ...(file.estimate ? { estimate: file.estimate } : {}) })), summary: value.summary };
  return JSON.stringify(document, null, 2) + "\n";
}

describe("the JSON report in pieces", () => {
  it("is byte for byte the document JSON.stringify would write", () => {
    expect([...formatJsonChunks(report)].join("")).toBe(oneString(report));
  });

  it("comes in pieces of about 1 MB, so no piece nears the 512 MB limit of a string", () => {
    const chunks = [...formatJsonChunks(report)];
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) expect(chunk.length).toBeLessThan(1.1 * 2 ** 20);
  });

  it("an empty report and a report of clean files are still one valid document", () => {
    const empty: CheckReport = { files: [], summary: { files: 0, errors: 0, warnings: 0 } };
    expect([...formatJsonChunks(empty)].join("")).toBe(oneString(empty));
    expect(JSON.parse([...formatJsonChunks(empty)].join(""))).toEqual({ version: 1, files: [], summary: empty.summary });
  });
});
