import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readRegularFile } from "../src/read-file.js";
import { tempTree } from "../../../test/support/temp-tree.js";

describe("readRegularFile", () => {
  it("reads a regular file whole, without its byte order mark", () => {
    const root = tempTree({ "a.json": "\ufeff{}\n" });
    expect(readRegularFile(path.join(root, "a.json"))).toEqual({ ok: true, text: "{}\n" });
  });

  it("refuses at once what is not a regular file: a FIFO, a device, a directory", () => {
    const root = tempTree();
    execFileSync("mkfifo", [path.join(root, "fifo")]);
    mkdirSync(path.join(root, "dir"));
    symlinkSync("/dev/zero", path.join(root, "zero"));
    expect(readRegularFile(path.join(root, "fifo"))).toMatchObject({ ok: false, missing: false, reason: expect.stringMatching(/not a regular file/) });
    expect(readRegularFile(path.join(root, "zero"))).toMatchObject({ ok: false, missing: false, reason: expect.stringMatching(/not a regular file/) });
    expect(readRegularFile(path.join(root, "dir"))).toMatchObject({ ok: false, missing: false, reason: "is a directory, not a file" });
  });

  it("refuses a file over the limit, and reads one at it", () => {
    const root = tempTree();
    writeFileSync(path.join(root, "at"), "x".repeat(100));
    writeFileSync(path.join(root, "over"), "x".repeat(101));
    expect(readRegularFile(path.join(root, "at"), 100)).toEqual({ ok: true, text: "x".repeat(100) });
    expect(readRegularFile(path.join(root, "over"), 100)).toMatchObject({ ok: false, reason: expect.stringMatching(/larger than/) });
  });

  it("tells a missing file from an unreadable one", () => {
    const root = tempTree({ "file": "" });
    expect(readRegularFile(path.join(root, "none"))).toMatchObject({ ok: false, missing: true, reason: "no such file or directory" });
    expect(readRegularFile(path.join(root, "file", "below"))).toMatchObject({ ok: false, missing: true });
  });
});
