/**
 * Everything a command touches outside its arguments, in one object, so that tests can run
 * commands in-process with fake streams and environment, and so that output is written in
 * one piece (a partial report on a broken pipe is worse than none).
 */
import { fstatSync, type Stats } from "node:fs";

export interface Output {
  write(text: string): void;
  /** True when the stream is a terminal: decides colours and progress-style output. */
  readonly isTTY: boolean;
  /** The terminal's width in columns, when the stream is a terminal (charts fit it). */
  readonly columns?: number | undefined;
  /**
   * Resolves once what was written has been handed on (a pipe's buffer drained). A writer of
   * very large output awaits it between pieces, so the pieces are not all held in memory.
   */
  flushed?(): Promise<void>;
  /** The file behind the stream (device and inode), so `-o` naming that same file writes here. */
  identity?(): Stats | undefined;
}

export interface Io {
  readonly stdout: Output;
  readonly stderr: Output;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Reads all of standard input as UTF-8. */
  readStdin(): Promise<string>;
}

export function processIo(): Io {
  return {
    stdout: { write: (text) => void process.stdout.write(text), isTTY: process.stdout.isTTY === true, columns: process.stdout.columns, flushed: () => drained(process.stdout), identity: () => fileOf(1) },
    stderr: { write: (text) => void process.stderr.write(text), isTTY: process.stderr.isTTY === true },
    cwd: process.cwd(),
    env: process.env,
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString("utf8");
    },
  };
}

function fileOf(fd: number): Stats | undefined {
  try {
    return fstatSync(fd);
  } catch {
    return undefined;
  }
}

/** Resolves when `stream` has no more queued output (or can take none: closed, failed). */
function drained(stream: NodeJS.WriteStream): Promise<void> {
  if (!stream.writableNeedDrain) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      stream.off("drain", done).off("close", done).off("error", done);
      resolve();
    };
    stream.on("drain", done).on("close", done).on("error", done);
  });
}
