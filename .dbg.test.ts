import { it } from "vitest";
import { parse } from "@wfkit/dsl";
import { IncrementalParser } from "./packages/language-server/src/service/wf/incremental-parser.js";
import { LineMap, composeRegions, type TextEditRegion } from "./packages/language-server/src/service/text.js";
import { applyEdit, prng, randomEdit, SAMPLE_WF } from "./packages/language-server/test/support/random-edits.js";
it("dbg", () => {
  const random = prng(Number(process.env.SEED));
  const parser = new IncrementalParser();
  let text = SAMPLE_WF;
  parser.reset(text, new LineMap(text));
  for (let i = 0; i < 4000; i++) {
    const before = text;
    let region: TextEditRegion | undefined; const edits = [];
    for (let k = random() < 0.3 ? 3 : 1; k > 0; k--) {
      const edit = randomEdit(text, random); edits.push(edit);
      text = applyEdit(text, edit);
      const step = { start: edit.start, oldEnd: edit.end, newEnd: edit.start + edit.text.length };
      region = region ? composeRegions(region, step) : step;
    }
    let inc;
    if (text.length > 2500) { text = SAMPLE_WF; inc = parser.reset(text, new LineMap(text)); } else inc = parser.update(text, new LineMap(text), region!);
    const full = parse(text);
    if (JSON.stringify([inc.ast, inc.diagnostics]) !== JSON.stringify([full.ast, full.diagnostics])) {
      console.log("edit", i, JSON.stringify(edits), JSON.stringify(region));
      console.log("prefix ok", text.slice(0, region!.start) === before.slice(0, region!.start), "suffix ok", text.slice(region!.newEnd) === before.slice(region!.oldEnd));
      const a = inc.ast.statements, b = full.ast.statements;
      console.log("counts", a.length, b.length, inc.diagnostics.length, full.diagnostics.length);
      for (let j = 0; j < Math.max(a.length, b.length); j++) if (JSON.stringify(a[j]) !== JSON.stringify(b[j])) { console.log("first diff stmt", j, JSON.stringify(a[j])?.slice(0,300), "\n vs", JSON.stringify(b[j])?.slice(0,300)); break; }
      for (let j = 0; j < Math.max(inc.diagnostics.length, full.diagnostics.length); j++) if (JSON.stringify(inc.diagnostics[j]) !== JSON.stringify(full.diagnostics[j])) { console.log("first diff diag", j, JSON.stringify(inc.diagnostics[j])?.slice(0,300), "\n vs", JSON.stringify(full.diagnostics[j])?.slice(0,300)); break; }
      const ch = (t: string) => { const { splitChunks } = require("./packages/language-server/src/service/wf/chunks.ts"); return splitChunks(t).map((c: any) => c.text); };
      console.log("BEFORE", JSON.stringify(before.slice(Math.max(0, region!.start - 150), region!.oldEnd + 150)));
      console.log("AFTER ", JSON.stringify(text.slice(Math.max(0, region!.start - 150), region!.newEnd + 150)));
      break;
    }
  }
});
