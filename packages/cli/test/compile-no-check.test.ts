/** `wfkit compile --no-check`: the JSON is written although the checker finds errors. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, runCli } from "../../../test/support/built-cli.js";
import { tempTree } from "../../../test/support/temp-tree.js";

// `terminal.future` is a part a newer service catalogue might offer; the local one does not.
const SOURCE = `workflow "w"\ntrigger start on_demand\npart next = terminal.future@1\ndestination inbox standalone\nstart -> next -> inbox\n`;

beforeAll(() => ensureBuilt());

describe("compile --no-check", () => {
  it("without it, errors stop the compile; with it, they are printed and the JSON is written", () => {
    const cwd = tempTree({ "w.wf": SOURCE });
    const checked = runCli(["compile", "w.wf", "-o", "w.json"], { cwd });
    expect(checked.status).toBe(1);
    expect(checked.stderr).toContain("terminal.future");
    expect(() => readFileSync(path.join(cwd, "w.json"))).toThrow();
    const unchecked = runCli(["compile", "w.wf", "-o", "w.json", "--no-check"], { cwd });
    expect(unchecked.status).toBe(0);
    expect(unchecked.stderr).toContain("terminal.future");
    const definition = JSON.parse(readFileSync(path.join(cwd, "w.json"), "utf8"));
    expect(definition.nodes.map((node: { partId?: string }) => node.partId)).toContain("terminal.future");
  });

  it("still refuses a source that does not parse: there is no JSON to write", () => {
    const cwd = tempTree({ "w.wf": "workflow (" });
    expect(runCli(["compile", "w.wf", "--no-check"], { cwd }).status).toBe(1);
  });
});
