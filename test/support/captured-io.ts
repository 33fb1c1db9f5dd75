/** The CLI's I/O in-process: what a command wrote to stdout and stderr, and the stdin it read. */
import type { Io } from "../../packages/cli/src/io.js";

export interface CapturedIo extends Io {
  out: () => string;
  err: () => string;
}

export function captureIo(cwd: string, options: { env?: Record<string, string>; stdin?: string; tty?: boolean } = {}): CapturedIo {
  let out = "";
  let err = "";
  return {
    stdout: { write: (text) => void (out += text), isTTY: options.tty ?? false },
    stderr: { write: (text) => void (err += text), isTTY: options.tty ?? false },
    cwd,
    env: options.env ?? {},
    readStdin: async () => options.stdin ?? "",
    out: () => out,
    err: () => err,
  };
}
