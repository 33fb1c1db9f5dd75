/**
 * What applies to a document, found as `wfkit check` finds it, through @wfkit/project (the
 * CLI's own code): the catalogue (the `wfkit.catalogue` setting, else the `catalogue` of the
 * nearest `wfkit.config.json`, else the embedded sample), and the config's severity settings,
 * which the language service applies with the document's suppressions. A config's `ignore`
 * does not hide an open document, as `wfkit check -` does not ignore what an editor sends.
 *
 * Configs may have comments, as the CLI allows. Config and catalogue files are read only if
 * they are regular files under the size limit (a FIFO or `/dev/zero` cannot hang the
 * server). A config or catalogue that cannot be used is a warning on the document (saying
 * where the mistake is, never quoting the file), and the document is checked against the
 * sample with no settings, where the CLI would stop with exit code 2.
 *
 * What was read is cached and dropped when the client reports that a watched file changed
 * or the settings changed, so an edit to the config or the catalogue re-checks open documents.
 */
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { defaultCatalogue, type Catalogue } from "@wfkit/core";
import {
  CONFIG_FILE_NAME,
  describeFileProblem,
  fileProjectOf,
  loadCatalogueFile,
  NO_POLICY,
  ProjectError,
  ProjectResolver,
  type CatalogueLoad,
  type FilePolicy,
} from "@wfkit/project";

export { CONFIG_FILE_NAME };

export interface ResolvedCatalogue {
  catalogue: Catalogue;
  /** The catalogue file, or undefined for the embedded sample. */
  path: string | undefined;
  /** Why the configured catalogue or config could not be used (the sample is used instead). */
  problem?: string;
  /** The config's severity settings for the document. */
  policy: FilePolicy;
}

export interface CatalogueSettings {
  /** The `wfkit.catalogue` setting; relative paths are taken from `workspaceRoot`. */
  cataloguePath?: string | undefined;
  workspaceRoot?: string | undefined;
}

const EMBEDDED: ResolvedCatalogue = { catalogue: defaultCatalogue, path: undefined, policy: NO_POLICY };

export class CatalogueResolver {
  private readonly loaded = new Map<string, CatalogueLoad>();
  private settings: CatalogueSettings = {};
  private project = this.newProject();

  configure(settings: CatalogueSettings): void {
    this.settings = settings;
    this.invalidate();
  }

  /** Forgets everything read from disk; the next lookup reads again. */
  invalidate(): void {
    this.loaded.clear();
    this.project = this.newProject();
  }

  /** Every file whose change should re-check documents: the catalogues in use and config files. */
  isRelevantFile(filePath: string): boolean {
    return path.basename(filePath) === CONFIG_FILE_NAME || this.loaded.has(path.resolve(filePath));
  }

  resolve(documentUri: string): ResolvedCatalogue {
    const file = filePathOf(documentUri);
    const configured = this.settings.cataloguePath?.trim();
    const override = configured ? path.resolve(this.settings.workspaceRoot ?? (file ? path.dirname(file) : process.cwd()), configured) : undefined;
    if (!file) return override ? this.withCatalogue(override, "the `wfkit.catalogue` setting", NO_POLICY) : EMBEDDED;
    let project;
    try {
      project = fileProjectOf(this.project, file, override);
    } catch (error) {
      if (!(error instanceof ProjectError)) throw error;
      return { ...EMBEDDED, problem: `${describeFileProblem(error.problem, error.problem.path)}; this config could not be used, so the sample catalogue and no config settings apply.` };
    }
    if (project.cataloguePath === undefined) return { ...EMBEDDED, policy: project.policy };
    return this.withCatalogue(project.cataloguePath, override ? "the `wfkit.catalogue` setting" : (project.config?.path ?? "the config"), project.policy);
  }

  /** The `baseUrl` of the config that applies to a document (a config that cannot be used has none). */
  configBaseUrl(documentUri: string): string | undefined {
    const file = filePathOf(documentUri);
    if (!file) return undefined;
    try {
      return fileProjectOf(this.project, file, undefined).config?.baseUrl;
    } catch (error) {
      if (error instanceof ProjectError) return undefined;
      throw error;
    }
  }

  private withCatalogue(filePath: string, origin: string, policy: FilePolicy): ResolvedCatalogue {
    let loaded = this.loaded.get(filePath);
    if (!loaded) this.loaded.set(filePath, (loaded = loadCatalogueFile(filePath)));
    if (loaded.ok) return { catalogue: loaded.catalogue, path: filePath, policy };
    return {
      ...EMBEDDED,
      path: filePath,
      policy,
      problem: `${describeFileProblem(loaded.problem, filePath)}; this catalogue (named by ${origin}) could not be read, so the sample catalogue is used.`,
    };
  }

  private newProject(): ProjectResolver {
    return new ProjectResolver({ cwd: this.settings?.workspaceRoot ?? process.cwd() });
  }
}

function filePathOf(uri: string): string | undefined {
  if (!uri.startsWith("file:")) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}
