/**
 * Reading a catalogue file (`--catalogue`, or `catalogue` in wfkit.config.json). A catalogue
 * that cannot be read or is invalid stops the run (exit 2): checking against a catalogue
 * other than the one asked for would pass or fail graphs for the wrong reasons.
 */
import { readFileSync } from "node:fs";
import { defaultCatalogue, loadCatalogue, type Catalogue } from "@wfkit/core";
import { CliError, describeFsError } from "./errors.js";
import { displayPathOf } from "./files.js";

const cache = new Map<string, Catalogue>();

/** The catalogue at `absolutePath`, or core's sample catalogue when none is named. */
export function catalogueAt(absolutePath: string | undefined, cwd: string): Catalogue {
  if (absolutePath === undefined) return defaultCatalogue;
  const cached = cache.get(absolutePath);
  if (cached) return cached;
  const shown = displayPathOf(absolutePath, cwd);
  let text: string;
  try {
    text = readFileSync(absolutePath, "utf8");
  } catch (error) {
    throw new CliError(`cannot read the catalogue: ${describeFsError(error, shown)}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    throw new CliError(`${shown}: the catalogue is not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const loaded = loadCatalogue(value);
  if (!loaded.ok) {
    const [first, ...rest] = loaded.problems;
    const where = first!.pointer ? ` at ${first!.pointer}` : "";
    throw new CliError(`${shown}: not a valid catalogue${where}: ${first!.message}${rest.length ? ` (and ${rest.length} more problem${rest.length === 1 ? "" : "s"})` : ""}`);
  }
  cache.set(absolutePath, loaded.catalogue);
  return loaded.catalogue;
}
