import { validateDefinition, loadCatalogue, defaultCatalogue } from "@wfkit/core";
import { analyzeSource, compile, parse, format, decompile, collectSymbols } from "@wfkit/dsl";
const t = (label, f) => { let r; try { r = f(); } catch (e) { r = "THROW " + e.stack.slice(0,400); } console.log(label, typeof r === "string" ? r.slice(0, 600) : JSON.stringify(r).slice(0,600)); };
const cat = structuredClone(defaultCatalogue);
t("default parts", () => cat.parts.map(p => [p.partId, p.requires, p.produces]));
const cyc = structuredClone(defaultCatalogue);
cyc.parts.push({ partId: "a", versions: ["1"], requires: ["y"], produces: ["x"], unattendedSafe: true, cost: { baseMinorUnits: 1 } }, { partId: "b", versions: ["1"], requires: ["x"], produces: ["y"], unattendedSafe: true, cost: { baseMinorUnits: 1 } }, { partId: "__proto__", versions: ["1"], requires: ["__proto__"], produces: ["__proto__", "constructor"], unattendedSafe: true, cost: { baseMinorUnits: 1 } });
t("load cyc", () => { const r = loadCatalogue(cyc); return [r.ok, r.problems]; });
t("cyc def", () => validateDefinition({ schemaVersion: 1, nodes: [{ id: "t", kind: "trigger", trigger: { kind: "on_demand" } }, { id: "a", partId: "a", partVersion: "1" }, { id: "b", partId: "b", partVersion: "1" }, { id: "p", partId: "__proto__", partVersion: "1" }, { id: "d", kind: "destination", destination: { kind: "standalone" } }], edges: [{ from: "t", to: "a" }, { from: "a", to: "b" }, { from: "b", to: "a" }, { from: "b", to: "p" }, { from: "p", to: "d" }] }, { catalogue: loadCatalogue(cyc).catalogue }).faults.map(f => [f.code, f.nodeId, f.message.slice(0,100)]));
for (const bad of [null, 1, "x", [], {}, { catalogueVersion: 1 }, { catalogueVersion: 1, parts: {} }, { catalogueVersion: 1, parts: [{}] }, { catalogueVersion: 1, parts: [{ partId: 1, versions: "1", requires: "x", produces: null, unattendedSafe: "yes", cost: {} }] }, JSON.parse('{"catalogueVersion":1,"parts":[],"__proto__":{"polluted":1}}'), { catalogueVersion: 2, parts: [] }])
  t("load " + JSON.stringify(bad), () => { const r = loadCatalogue(bad); return [r.ok, r.problems]; });
t("validate with junk catalogue", () => validateDefinition({ schemaVersion: 1, nodes: [], edges: [] }, { catalogue: { parts: null } }).faults.map(f=>f.code));
t("validate with junk catalogue 2", () => validateDefinition({ schemaVersion: 1, nodes: [{id:"x", partId:"pack", partVersion:"1"}], edges: [] }, { catalogue: { catalogueVersion:1, parts: [{partId:"pack"}] } }).faults.map(f=>f.code));
t("validate with junk catalogue 3", () => validateDefinition({ schemaVersion: 1, nodes: [{id:"x", partId:"pack", partVersion:"1"}], edges: [] }, { catalogue: 5 }).faults.map(f=>f.code));
const src = `workflow "__proto__"
subject __proto__ = company "__proto__" "constructor"
trigger constructor on_demand
part __proto__ = pack@1 with { __proto__: {polluted: 1} }
part toString = terminal.compare@1 { job compare.peers@1 subjects [__proto__] }
node {"__proto__": {"polluted": 2}, "id": "hasOwnProperty", "kind": "gate", "belowFloor": "hold"}
destination valueOf standalone
constructor -> toString -> __proto__ -> hasOwnProperty -> valueOf
`;
t("wf proto", () => { const r = analyzeSource(src, "wf"); return [r.ok, r.faults.map(f => [f.code, f.message.slice(0,80)]), JSON.stringify(r.definition).slice(0,300)]; });
t("compile proto", () => compile(src).diagnostics.length);
t("format proto", () => format(src).text.length);
t("decompile", () => decompile(compile(src).definition));
t("symbols", () => collectSymbols ? Object.keys(collectSymbols(parse(src).ast)) : 0);
t("json proto", () => { const r = analyzeSource('{"__proto__":{"polluted":3},"schemaVersion":1,"nodes":[{"id":"__proto__","kind":"trigger","trigger":{"kind":"on_demand","__proto__":{"polluted":4}}}],"edges":[],"constructor":{"prototype":{"polluted":5}}}', "json"); return r.faults.map(f => f.code); });
t("polluted?", () => [({}).polluted, Object.prototype.polluted, Object.getOwnPropertyNames(Object.prototype).length]);
