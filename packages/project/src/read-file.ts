/**
 * Reading a config or a catalogue: only regular files, and at most `MAX_PROJECT_FILE_BYTES`.
 *
 * A path can name a FIFO (a read blocks until someone writes, maybe forever), a device
 * (`/dev/zero` never ends) or a directory. The file is opened with O_NONBLOCK, so opening a
 * FIFO returns at once, and `fstat` on the open descriptor decides (no race with a path
 * swapped between a `stat` and the `open`). The read stops one byte past the limit, so a file
 * that grows while it is read cannot take more than that.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

/** 16 MiB: far above any real config or catalogue (the sample catalogue is a few KB), far below trouble. */
export const MAX_PROJECT_FILE_BYTES = 16 * 1024 * 1024;

export type ReadResult = { ok: true; text: string } | { ok: false; missing: boolean; reason: string };

export function readRegularFile(absolutePath: string, limit = MAX_PROJECT_FILE_BYTES): ReadResult {
  let descriptor: number;
  try {
    descriptor = openSync(absolutePath, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { ok: false, missing: code === "ENOENT" || code === "ENOTDIR", reason: fsReason(error) };
  }
  try {
    const info = fstatSync(descriptor);
    if (info.isDirectory()) return refused("is a directory, not a file");
    if (!info.isFile()) return refused("is not a regular file (a FIFO, device or socket); wfkit reads configs and catalogues only from regular files");
    if (info.size > limit) return refused(tooLarge(limit));
    // In chunks until the end: the size fstat gave may change while the file is read.
    const chunks: Buffer[] = [];
    let length = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(Math.max(info.size - length + 1, 64 * 1024), limit + 1 - length));
      const read = readSync(descriptor, chunk, 0, chunk.length, null);
      if (read === 0) break;
      chunks.push(read === chunk.length ? chunk : chunk.subarray(0, read));
      length += read;
      if (length > limit) return refused(tooLarge(limit));
    }
    const text = Buffer.concat(chunks, length).toString("utf8");
    return { ok: true, text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text };
  } catch (error) {
    return refused(fsReason(error));
  } finally {
    closeSync(descriptor);
  }
}

function refused(reason: string): ReadResult {
  return { ok: false, missing: false, reason };
}

function tooLarge(limit: number): string {
  return `is larger than ${limit / (1024 * 1024)} MiB, the most wfkit reads for a config or catalogue`;
}

/** A sentence for an fs error, without the path (the caller names it as the user wrote it). */
export function fsReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case "ENOENT":
      return "no such file or directory";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "EISDIR":
      return "is a directory, not a file";
    case "ENOTDIR":
      return "a parent of this path is not a directory";
    case "ELOOP":
      return "too many levels of symbolic links";
    case "EAGAIN":
      return "would block (not a regular file)";
    default:
      return `cannot be read (${code ?? "unknown error"})`;
  }
}
