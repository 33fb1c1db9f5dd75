/**
 * Standard output and error are written with `writeSync` on their descriptors, falling back
 * to Node's stream where a descriptor would block; a reader that goes away (`EPIPE`) ends the
 * output quietly. The unit tests drive `descriptorOutput` with a scripted write; the last one
 * closes a real pipe on the built CLI.
 */
import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { syntheticSource } from "@wfkit/dsl";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { descriptorOutput } from "../src/io.js";
import { bin, ensureBuilt } from "../../../test/support/built-cli.js";

function errno(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(code), { code });
}

/** A fake stream that records what it is given. */
function recordingStream(): { stream: NodeJS.WriteStream; written: string[] } {
  const written: string[] = [];
  const stream = {
    write: (chunk: string | Uint8Array) => written.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8")),
    on: () => stream,
    columns: 93,
  } as unknown as NodeJS.WriteStream;
  return { stream, written };
}

describe("descriptorOutput", () => {
  it("writes every byte, in order, through short writes", () => {
    const bytes: number[] = [];
    // At most three bytes a call, as a pipe may take less than it is given.
    const write = (_fd: number, data: Uint8Array, offset: number) => {
      const taken = data.subarray(offset, offset + 3);
      bytes.push(...taken);
      return taken.length;
    };
    const output = descriptorOutput(1, () => recordingStream().stream, { brokenPipe: () => undefined, write, isTTY: false });
    output.write("héllo, ");
    output.write("wörld\n");
    expect(Buffer.from(bytes).toString("utf8")).toBe("héllo, wörld\n");
  });

  it("hands the rest to the stream once the descriptor would block, keeping the order", () => {
    const direct: number[] = [];
    let calls = 0;
    const write = (_fd: number, data: Uint8Array, offset: number) => {
      calls++;
      if (calls === 2) throw errno("EAGAIN");
      const taken = data.subarray(offset, offset + 4);
      direct.push(...taken);
      return taken.length;
    };
    const { stream, written } = recordingStream();
    let opened = 0;
    const output = descriptorOutput(1, () => (opened++, stream), { brokenPipe: () => undefined, write, isTTY: false });
    output.write("abcdefgh");
    output.write("ijk");
    expect(Buffer.from(direct).toString("utf8")).toBe("abcd");
    expect(written.join("")).toBe("efghijk");
    expect(calls).toBe(2);
    expect(opened).toBe(1);
  });

  it("ends quietly when the reader has gone", () => {
    let broken = 0;
    const write = () => {
      throw errno("EPIPE");
    };
    const output = descriptorOutput(1, () => recordingStream().stream, { brokenPipe: () => void broken++, write, isTTY: false });
    expect(() => output.write("report\n")).not.toThrow();
    expect(broken).toBe(1);
  });

  it("lets any other failure through", () => {
    const write = () => {
      throw errno("EBADF");
    };
    const output = descriptorOutput(1, () => recordingStream().stream, { brokenPipe: () => undefined, write, isTTY: false });
    expect(() => output.write("report\n")).toThrow("EBADF");
  });

  it("asks the stream for a width only on a terminal", () => {
    let opened = 0;
    const open = () => (opened++, recordingStream().stream);
    expect(descriptorOutput(1, open, { brokenPipe: () => undefined, isTTY: false }).columns).toBeUndefined();
    expect(opened).toBe(0);
    expect(descriptorOutput(1, open, { brokenPipe: () => undefined, isTTY: true }).columns).toBe(93);
    expect(opened).toBe(1);
  });

  it("knows the null device is no terminal without making a stream", () => {
    let opened = 0;
    const open = () => (opened++, recordingStream().stream);
    const fd = openSync("/dev/null", "w");
    try {
      const output = descriptorOutput(fd, open, { brokenPipe: () => undefined });
      output.write("dropped\n");
      expect(output.isTTY).toBe(false);
      expect(output.columns).toBeUndefined();
      expect(opened).toBe(0);
    } finally {
      closeSync(fd);
    }
  });
});

describe("the built CLI writing into a pipe closed early", () => {
  let directory: string;
  beforeAll(() => {
    ensureBuilt();
    directory = mkdtempSync(path.join(tmpdir(), "wfkit-pipe-"));
    // Far more than a pipe holds, so the write meets the closed pipe.
    writeFileSync(path.join(directory, "big.wf"), syntheticSource(2000));
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it("stops without an error when the reader stops reading", () => {
    const script = `'${process.execPath}' '${bin}' fmt big.wf | head -c 1 > /dev/null; echo "status=\${PIPESTATUS[0]}" >&2`;
    const result = spawnSync("bash", ["-c", script], { cwd: directory, encoding: "utf8", timeout: 60_000 });
    expect(result.stderr).toBe("status=0\n");
  });
});
