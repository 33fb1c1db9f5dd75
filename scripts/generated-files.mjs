// Checked-in files that scripts generate (validators, field writers, grammars, rule docs,
// templates). Every generating script ends here: it writes the files that changed, or, given
// `--check` (as the tests run it), writes nothing and exits 1 naming the stale files and the
// command that regenerates them. A file is written to a temporary name and renamed, so an
// interrupted run never leaves half of one.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";

/** `files`: each file's path (a path or a file: URL) and its text; `command`: what regenerates them. */
export function writeGenerated(files, command, check = process.argv.includes("--check")) {
  const stale = files.map(({ path, text }) => ({ path: path instanceof URL ? fileURLToPath(path) : path, text })).filter(({ path, text }) => read(path) !== text);
  if (check) {
    if (stale.length === 0) return;
    console.error(`stale: ${stale.map(({ path }) => path).join(", ")}; run ${command}`);
    process.exit(1);
  }
  for (const { path, text } of stale) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(`${path}.tmp`, text);
    renameSync(`${path}.tmp`, path);
    console.log(`wrote ${path}`);
  }
}

function read(path) {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}
