/**
 * Which part catalogue a document is checked against, in the order the issue fixes:
 * the `wfkit.catalogue` setting, else the nearest `wfkit.config.json` walking up from the
 * document (its `catalogue` key, a path relative to that file), else the embedded sample.
 *
 * Loaded catalogues are cached by path and dropped when the client reports that a watched
 * file changed or the settings changed, so an edit to the catalogue re-checks open documents.
 */
import { readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { defaultCatalogue, loadCatalogue, type Catalogue } from "@wfkit/core";

export const CONFIG_FILE_NAME = "wfkit.config.json";

export interface ResolvedCatalogue {
  catalogue: Catalogue;
  /** The catalogue file, or undefined for the embedded sample. */
  path: string | undefined;
  /** Why the configured catalogue could not be used (the sample is used instead). */
  problem?: string;
}

export interface CatalogueSettings {
  /** The `wfkit.catalogue` setting; relative paths are taken from `workspaceRoot`. */
  cataloguePath?: string | undefined;
  workspaceRoot?: string | undefined;
}

const EMBEDDED: ResolvedCatalogue = { catalogue: defaultCatalogue, path: undefined };

export class CatalogueResolver {
  private readonly loaded = new Map<string, ResolvedCatalogue>();
  /** Directory -> the config file that governs it (or null), so walking up happens once per folder. */
  private readonly configByDirectory = new Map<string, string | null>();
  private settings: CatalogueSettings = {};

  configure(settings: CatalogueSettings): void {
    this.settings = settings;
    this.invalidate();
  }

  /** Forgets everything read from disk; the next lookup reads again. */
  invalidate(): void {
    this.loaded.clear();
    this.configByDirectory.clear();
  }

  /** Every file whose change should re-check documents: the catalogues in use and config files. */
  isRelevantFile(filePath: string): boolean {
    return path.basename(filePath) === CONFIG_FILE_NAME || this.loaded.has(path.resolve(filePath));
  }

  resolve(documentUri: string): ResolvedCatalogue {
    const configured = this.settings.cataloguePath?.trim();
    if (configured) {
      const base = this.settings.workspaceRoot ?? directoryOf(documentUri) ?? process.cwd();
      return this.load(path.resolve(base, configured), "the `wfkit.catalogue` setting");
    }
    const directory = directoryOf(documentUri);
    if (!directory) return EMBEDDED;
    const configFile = this.findConfig(directory);
    if (!configFile) return EMBEDDED;
    let config: unknown;
    try {
      config = JSON.parse(readFileSync(configFile, "utf8"));
    } catch (error) {
      return { ...EMBEDDED, problem: `${configFile} could not be read (${messageOf(error)}); using the sample catalogue.` };
    }
    const cataloguePath = typeof config === "object" && config !== null ? (config as Record<string, unknown>).catalogue : undefined;
    if (typeof cataloguePath !== "string") return EMBEDDED;
    return this.load(path.resolve(path.dirname(configFile), cataloguePath), configFile);
  }

  private load(filePath: string, origin: string): ResolvedCatalogue {
    const cached = this.loaded.get(filePath);
    if (cached) return cached;
    let result: ResolvedCatalogue;
    try {
      const loaded = loadCatalogue(JSON.parse(readFileSync(filePath, "utf8")));
      result = loaded.ok
        ? { catalogue: loaded.catalogue, path: filePath }
        : {
            ...EMBEDDED,
            path: filePath,
            problem: `The catalogue ${filePath} (from ${origin}) is invalid: ${loaded.problems
              .slice(0, 3)
              .map((p) => `${p.pointer || "/"}: ${p.message}`)
              .join("; ")}. Using the sample catalogue.`,
          };
    } catch (error) {
      result = { ...EMBEDDED, path: filePath, problem: `The catalogue ${filePath} (from ${origin}) could not be read (${messageOf(error)}). Using the sample catalogue.` };
    }
    this.loaded.set(filePath, result);
    return result;
  }

  private findConfig(directory: string): string | undefined {
    const visited: string[] = [];
    let current = directory;
    let found: string | null | undefined;
    for (;;) {
      if (this.configByDirectory.has(current)) {
        found = this.configByDirectory.get(current);
        break;
      }
      visited.push(current);
      const candidate = path.join(current, CONFIG_FILE_NAME);
      if (isFile(candidate)) {
        found = candidate;
        break;
      }
      const parent = path.dirname(current);
      if (parent === current) {
        found = null;
        break;
      }
      current = parent;
    }
    for (const directoryVisited of visited) this.configByDirectory.set(directoryVisited, found ?? null);
    return found ?? undefined;
  }
}

function directoryOf(uri: string): string | undefined {
  if (!uri.startsWith("file:")) return undefined;
  try {
    return path.dirname(fileURLToPath(uri));
  } catch {
    return undefined;
  }
}

function isFile(filePath: string): boolean {
  try {
    return statSync(filePath).isFile();
  } catch {
    return false;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
