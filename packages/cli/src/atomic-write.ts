/**
 * Writing an output file so that it is never half-written: the text goes to a temporary
 * file in the same directory (so the rename cannot cross filesystems), is flushed to disk,
 * takes the original file's mode, and is renamed over the target in one step. A reader sees
 * the old file or the new one, never a mixture; an interrupted write leaves the old file.
 *
 * A file whose content would not change is not touched at all (its mtime stays, so build
 * tools and editors do not see a change that is not one).
 */
import { randomBytes } from "node:crypto";
import { chmod, open, readFile, rename, stat, unlink } from "node:fs/promises";
import path from "node:path";

export type WriteOutcome = "written" | "unchanged";

export async function writeFileAtomic(target: string, text: string): Promise<WriteOutcome> {
  const existing = await readFile(target, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  if (existing === text) return "unchanged";
  const mode = existing === undefined ? undefined : (await stat(target)).mode & 0o7777;
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
  return "written";
}
