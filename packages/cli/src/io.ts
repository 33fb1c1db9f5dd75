/**
 * Everything a command touches outside its arguments, in one object, so that tests can run
 * commands in-process with fake streams and environment, and so that output is written in
 * one piece (a partial report on a broken pipe is worse than none).
 */
import { fstatSync, statSync, writeSync, type Stats } from "node:fs";

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
    stdout: descriptorOutput(1, () => process.stdout, { brokenPipe: endQuietly }),
    stderr: descriptorOutput(2, () => process.stderr, { brokenPipe: dropMessages }),
    cwd: process.cwd(),
    env: process.env,
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString("utf8");
    },
  };
}

/** Standard output's reader went away (`wfkit check | head`): the run has nothing left to do. */
function endQuietly(): never {
  process.exit(process.exitCode ?? 0);
}

/**
 * Standard error's reader went away: its messages can reach no one, but the run goes on, so
 * that its exit status still says whether the input had faults.
 */
function dropMessages(): void {
  return;
}

/** What `descriptorOutput` does besides writing; tests give their own. */
export interface DescriptorHooks {
  /** The reader went away (`EPIPE`, `wfkit check | head`): no error worth a stack trace. */
  brokenPipe(): void;
  write?: (fd: number, bytes: Uint8Array, offset: number) => number;
  isTTY?: boolean;
}

/**
 * Output to a descriptor of this process, written with `writeSync`. Creating `process.stdout`
 * or `process.stderr` loads Node's stream machinery, several milliseconds of a run that
 * prints one line, and on Linux those streams write files, pipes and terminals synchronously
 * anyway. The stream (`openStream`) is made only where it is needed: to ask a character
 * device whether it is a terminal and how wide, and to take the rest of the run's output
 * once the descriptor would block (`EAGAIN`: one another process left non-blocking), so that
 * output stays in order.
 */
export function descriptorOutput(fd: number, openStream: () => NodeJS.WriteStream, hooks: DescriptorHooks): Output {
  const write = hooks.write ?? writeSync;
  let stream: NodeJS.WriteStream | undefined;
  const streamed = (): NodeJS.WriteStream => {
    if (!stream) {
      stream = openStream();
      stream.on("error", (error: NodeJS.ErrnoException) => {
        if (error.code !== "EPIPE") throw error;
        hooks.brokenPipe();
      });
    }
    return stream;
  };
  const isTTY = hooks.isTTY ?? (mayBeTerminal(fileOf(fd)) && streamed().isTTY === true);
  let blocked = false;
  return {
    write(text) {
      if (blocked) return void streamed().write(text);
      const bytes = Buffer.from(text, "utf8");
      let offset = 0;
      try {
        while (offset < bytes.length) offset += write(fd, bytes, offset);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "EPIPE") return hooks.brokenPipe();
        if (code !== "EAGAIN") throw error;
        blocked = true;
        streamed().write(bytes.subarray(offset));
      }
    },
    isTTY,
    get columns() {
      return isTTY ? streamed().columns : undefined;
    },
    flushed: () => (stream ? drained(stream) : Promise.resolve()),
    identity: () => fileOf(fd),
  };
}

/**
 * Whether output to this file could be a terminal. Only a character device can be one, and
 * the null device never is. Telling these apart with `fstat` spares output to a pipe, a file
 * (a CI log, a hook) or `/dev/null` the stream: making one loads Node's stream and TTY
 * modules, a measurable share of a short run (docs/performance.md). Any other character device
 * is asked through the stream.
 */
function mayBeTerminal(file: Stats | undefined): boolean {
  if (file?.isCharacterDevice() !== true) return false;
  const nullDevice = fileOf(NULL_DEVICE);
  return !(nullDevice?.isCharacterDevice() && nullDevice.rdev === file.rdev);
}

// Where there is none (Windows), the stream is asked.
const NULL_DEVICE = "/dev/null";

/** What `fstat` says of a descriptor, or `stat` of a path; undefined where there is nothing to ask. */
function fileOf(file: number | string): Stats | undefined {
  try {
    return typeof file === "number" ? fstatSync(file) : statSync(file);
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
