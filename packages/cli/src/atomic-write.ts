/**
 * Writing an output file so that it is never half-written and never lands somewhere the user
 * did not mean:
 *
 * - A symbolic link is written through: the file it points at gets the new text and the link
 *   stays a link (`realpath`).
 * - Only regular files are written. A FIFO would block the write (and reading it to compare,
 *   for ever), a device or socket is not a file to replace, a directory cannot be: each is
 *   refused with one line.
 * - A read-only file is refused, although a rename over it would succeed (renaming needs only
 *   the directory to be writable): read-only says "do not change this".
 * - The text goes to a temporary file next to the real target (so the rename cannot cross
 *   filesystems), is flushed to disk, takes the original file's mode, and is renamed over the
 *   target in one step; the directory is flushed too, so the rename survives a crash. A
 *   reader sees the old file or the new one, never a mixture; an interrupted write leaves the
 *   old file. Other hard links to the old file keep the old text.
 *
 * A file whose content would not change is not touched at all (its mtime stays, so build
 * tools and editors do not see a change that is not one).
 */
import { randomBytes } from "node:crypto";
import { constants, type Stats } from "node:fs";
import { access, chmod, lstat, open, readFile, realpath, rename, stat, unlink } from "./fs-lazy.js";
import path from "node:path";
import { CliError, describeFsError } from "./errors.js";

export type WriteOutcome = "written" | "unchanged";

export interface WriteTarget {
  /** The path to write: the target with every symbolic link resolved. */
  path: string;
  /** The file there now (a regular file), or undefined for a new file. */
  existing: Stats | undefined;
}

/** What a file that is not a regular file is, for the refusal. */
function kindOf(stats: Stats): string {
  if (stats.isFIFO()) return "a named pipe (FIFO)";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  if (stats.isDirectory()) return "a directory";
  if (stats.isSocket()) return "a socket";
  return "not a regular file";
}

/**
 * Where writing `target` lands, or a CliError (exit 2, one line naming `displayPath`) when it
 * must not be written: not a regular file, read-only, a link to nothing, no such directory.
 */
export async function resolveWriteTarget(target: string, displayPath: string = target): Promise<WriteTarget> {
  const fail = (error: unknown): never => {
    throw new CliError(`cannot write ${describeFsError(error, displayPath)}`);
  };
  const link = await lstat(target).catch((error: NodeJS.ErrnoException) => (error.code === "ENOENT" ? undefined : fail(error)));
  if (link === undefined) {
    // A new file: it goes into the real directory under the name given.
    const directory = await realpath(path.dirname(target)).catch(fail);
    return { path: path.join(directory, path.basename(target)), existing: undefined };
  }
  const existing = await stat(target).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") throw new CliError(`cannot write ${displayPath}: it is a symbolic link to a file that does not exist; point it at a file, or remove it`);
    return fail(error);
  });
  if (!existing.isFile()) throw new CliError(`cannot write ${displayPath}: it is ${kindOf(existing)}, and wfkit writes only regular files`);
  const real = await realpath(target).catch(fail);
  const writable = (existing.mode & 0o222) !== 0 && (await access(real, constants.W_OK).then(() => true, () => false));
  if (!writable) throw new CliError(`cannot write ${displayPath}: it is read-only; make it writable first if it should change`);
  return { path: real, existing };
}

/** Writes `text` to `target` as described above; every failure is a CliError naming `displayPath`. */
export async function writeFileAtomic(target: string, text: string, displayPath: string = target): Promise<WriteOutcome> {
  const resolved = await resolveWriteTarget(target, displayPath);
  try {
    return await replaceFile(resolved, text);
  } catch (error) {
    throw new CliError(`cannot write ${describeFsError(error, displayPath)}`);
  }
}

async function replaceFile({ path: target, existing }: WriteTarget, text: string): Promise<WriteOutcome> {
  if (existing !== undefined && (await readFile(target, "utf8")) === text) return "unchanged";
  const mode = existing === undefined ? undefined : existing.mode & 0o7777;
  const temporary = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString("hex")}.tmp`);
  let handle;
  try {
    handle = await open(temporary, "wx", mode ?? 0o666);
    await handle.writeFile(text, "utf8");
    await handle.sync();
    await handle.close();
    handle = undefined;
    // open() applies the umask; the original's mode is restored exactly.
    if (mode !== undefined) await chmod(temporary, mode);
    await rename(temporary, target);
  } catch (error) {
    await handle?.close().catch(() => {});
    await unlink(temporary).catch(() => {});
    throw error;
  }
  await syncDirectory(path.dirname(target));
  return "written";
}

/** Flushes a directory's entries (the rename) to disk; where a directory cannot be opened for that, the rename is already done. */
async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, "r").catch(() => undefined);
  if (!handle) return;
  await handle.sync().catch(() => {});
  await handle.close().catch(() => {});
}
