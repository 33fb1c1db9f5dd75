import { chmodSync, readdirSync, readFileSync, statSync, utimesSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { writeFileAtomic } from "../src/atomic-write.js";
import { tempTree } from "../../../test/support/temp-tree.js";

describe("writeFileAtomic", () => {
  it("creates a new file", async () => {
    const root = tempTree();
    const target = path.join(root, "out.json");
    expect(await writeFileAtomic(target, "new\n")).toBe("written");
    expect(readFileSync(target, "utf8")).toBe("new\n");
    expect(readdirSync(root)).toEqual(["out.json"]);
  });

  it("replaces a file, keeping its mode and leaving no temporary file", async () => {
    const root = tempTree({ "run.wf": "old\n" });
    const target = path.join(root, "run.wf");
    chmodSync(target, 0o741);
    expect(await writeFileAtomic(target, "new\n")).toBe("written");
    expect(readFileSync(target, "utf8")).toBe("new\n");
    expect(statSync(target).mode & 0o777).toBe(0o741);
    expect(readdirSync(root)).toEqual(["run.wf"]);
  });

  it("does not touch a file whose content would not change", async () => {
    const root = tempTree({ "same.wf": "same\n" });
    const target = path.join(root, "same.wf");
    const past = new Date("2020-01-01T00:00:00Z");
    utimesSync(target, past, past);
    expect(await writeFileAtomic(target, "same\n")).toBe("unchanged");
    expect(statSync(target).mtime.getTime()).toBe(past.getTime());
  });

  it("fails without leaving a temporary file when the directory is missing", async () => {
    const root = tempTree();
    await expect(writeFileAtomic(path.join(root, "missing", "x.wf"), "x")).rejects.toThrow(/cannot write .*x\.wf: no such file or directory/);
    expect(readdirSync(root)).toEqual([]);
  });
});
