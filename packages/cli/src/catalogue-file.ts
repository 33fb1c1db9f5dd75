/**
 * The CLI's catalogue lookup: @wfkit/project reads the file (regular files only, size-limited,
 * problems that never quote the file); an unusable catalogue stops the run (exit 2), since
 * checking against a catalogue other than the one asked for would pass or fail graphs for
 * the wrong reasons.
 */
import type { Catalogue } from "@wfkit/core";
import { loadCatalogueFile } from "@wfkit/project";
import { cliErrorOf } from "./config.js";

const cache = new Map<string, Catalogue>();

/** The catalogue at `absolutePath`, or core's sample catalogue when none is named. */
export function catalogueAt(absolutePath: string | undefined, cwd: string): Catalogue {
  const cached = absolutePath === undefined ? undefined : cache.get(absolutePath);
  if (cached) return cached;
  const loaded = loadCatalogueFile(absolutePath);
  if (!loaded.ok) throw cliErrorOf(loaded.problem, cwd);
  if (absolutePath !== undefined) cache.set(absolutePath, loaded.catalogue);
  return loaded.catalogue;
}
