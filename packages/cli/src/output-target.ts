/** Where a command's text goes: standard output, or a file written atomically (`-o FILE`). */
import path from "node:path";
import { writeFileAtomic, type WriteOutcome } from "./atomic-write.js";
import { CliError, describeFsError } from "./errors.js";
import { displayPathOf } from "./files.js";
import type { Io } from "./io.js";

export async function writeOutput(text: string, output: string | undefined, io: Io): Promise<WriteOutcome | "stdout"> {
  if (output === undefined || output === "-") {
    io.stdout.write(text);
    return "stdout";
  }
  const target = path.resolve(io.cwd, output);
  try {
    return await writeFileAtomic(target, text);
  } catch (error) {
    throw new CliError(`cannot write ${describeFsError(error, displayPathOf(target, io.cwd))}`);
  }
}
