/**
 * `.wfkit/state.json`, the project's memory of the service: which workflow id each name was
 * deployed as, what was last deployed to each workflow from this project (the definition, the
 * canonical hash of the body sent, the version saved, whether it was published, the service's estimate), and
 * the Idempotency-Key of every run start that has been sent but whose answer has not been
 * recorded yet. Written atomically (atomic-write.ts) before the request it protects, so a
 * crash at any moment leaves either the old state or the new one; the file is the owner's
 * alone (0600: it holds the definitions deployed and the keys of runs being started).
 *
 *   {"version": 1, "baseUrls": {"<base url>": {
 *     "workflows": {"<name>": "<id>"},
 *     "deployed": {"<workflow id>": {"hash", "versionId", "deployedAt", "published", "estimate"?, "definition"}},
 *     "pendingRuns": {"<workflow id> <question>": "<key>"}}}}
 *
 * Kept per base URL: a local `wfkit serve` and the real service give different ids. The
 * reference has no route that reads a version's definition back, so `wfkit deploy` compares
 * with the definition kept here: what was last deployed *from this project*.
 */
import { createHash } from "node:crypto";
import { chmod, mkdir, open, stat } from "./fs-lazy.js";
import path from "node:path";
import { readRegularFile } from "@wfkit/project";
import { writeFileAtomic } from "./atomic-write.js";
import { CliError } from "./errors.js";

export const STATE_DIRECTORY = ".wfkit";
export const STATE_FILE = "state.json";

/** What a deploy from this project last saved to a workflow. */
export interface DeployedRecord {
  /** sha256 of the version-save body's canonical JSON (`canonicalHash`): equal hashes, nothing to deploy. */
  hash: string;
  versionId: string;
  /** When it was saved, as an ISO 8601 time. */
  deployedAt: string;
  /** Whether this deploy published it (a later publish from elsewhere is not known here). */
  published: boolean;
  /** The service's estimate of it (validate-definition's), per run. */
  estimate?: { costMinorUnits: number };
  /** The definition (or version-save body) the deployed file stood for, for the next plan's comparison. */
  definition: unknown;
}

interface ServiceState {
  workflows: Record<string, string>;
  deployed: Record<string, DeployedRecord>;
  pendingRuns: Record<string, string>;
}

interface StateDocument {
  version: 1;
  baseUrls: Record<string, ServiceState>;
}

export class StateFile {
  readonly path: string;
  readonly displayPath = `${STATE_DIRECTORY}/${STATE_FILE}`;

  constructor(
    projectRoot: string,
    private readonly baseUrl: string,
  ) {
    this.path = path.join(projectRoot, STATE_DIRECTORY, STATE_FILE);
  }

  private read(): StateDocument {
    const read = readRegularFile(this.path);
    if (!read.ok) {
      if (read.missing) return { version: 1, baseUrls: {} };
      throw new CliError(`cannot read ${this.displayPath}: ${read.reason}`);
    }
    try {
      const parsed = JSON.parse(read.text) as StateDocument;
      if (parsed?.version === 1 && parsed.baseUrls && typeof parsed.baseUrls === "object") return parsed;
    } catch {
      // fall through to the refusal
    }
    throw new CliError(`${this.displayPath} is not a wfkit state file; move it away (wfkit then starts a new one, and forgets which workflow ids it deployed)`);
  }

  private service(document: StateDocument): ServiceState {
    const key = this.baseUrl.replace(/\/+$/, "");
    const entry = Object.hasOwn(document.baseUrls, key) ? document.baseUrls[key]! : (document.baseUrls[key] = { workflows: {}, deployed: {}, pendingRuns: {} });
    entry.workflows ??= {};
    entry.deployed ??= {};
    entry.pendingRuns ??= {};
    return entry;
  }

  private async update(change: (state: ServiceState) => void): Promise<void> {
    const document = this.read();
    change(this.service(document));
    await mkdir(path.dirname(this.path), { recursive: true }).catch((error: Error) => {
      throw new CliError(`cannot create ${STATE_DIRECTORY}/: ${error.message}`);
    });
    await ownerOnly(this.path);
    await writeFileAtomic(this.path, JSON.stringify(document, null, 2) + "\n", this.displayPath);
  }

  workflowId(name: string): string | undefined {
    const workflows = this.service(this.read()).workflows;
    return Object.hasOwn(workflows, name) ? workflows[name] : undefined;
  }

  rememberWorkflow(name: string, id: string): Promise<void> {
    return this.update((state) => (state.workflows[name] = id));
  }

  /** The names this project deployed, by workflow id (the first name of an id wins). */
  namesById(): Map<string, string> {
    const names = new Map<string, string>();
    for (const [name, id] of Object.entries(this.service(this.read()).workflows)) if (typeof id === "string" && !names.has(id)) names.set(id, name);
    return names;
  }

  /** `namesById`, or no names when the state file cannot be read: a listing still lists, by id. */
  namesOrNone(): Map<string, string> {
    try {
      return this.namesById();
    } catch {
      return new Map();
    }
  }

  /** What a deploy from this project last saved to `workflowId`, if one did (and the record is whole). */
  deployed(workflowId: string): DeployedRecord | undefined {
    const deployed = this.service(this.read()).deployed;
    const record = Object.hasOwn(deployed, workflowId) ? deployed[workflowId] : undefined;
    return record && typeof record === "object" && typeof record.hash === "string" && typeof record.versionId === "string" ? record : undefined;
  }

  rememberDeployment(workflowId: string, record: DeployedRecord): Promise<void> {
    return this.update((state) => (state.deployed[workflowId] = record));
  }

  /** The recorded version of `workflowId` was published. */
  rememberPublished(workflowId: string, versionId: string): Promise<void> {
    return this.update((state) => {
      const record = state.deployed[workflowId];
      if (record?.versionId === versionId) record.published = true;
    });
  }

  pendingRunKey(request: string): string | undefined {
    const pending = this.service(this.read()).pendingRuns;
    return Object.hasOwn(pending, request) ? pending[request] : undefined;
  }

  savePendingRun(request: string, key: string): Promise<void> {
    return this.update((state) => (state.pendingRuns[request] = key));
  }

  /** The answer arrived: the next identical command is a new run. */
  clearPendingRun(request: string): Promise<void> {
    return this.update((state) => delete state.pendingRuns[request]);
  }
}

/**
 * The state file is created 0600, and one made wider (by hand, or by an older wfkit under a
 * permissive umask) is narrowed before it is written again: the atomic write keeps the
 * existing file's mode.
 */
async function ownerOnly(file: string): Promise<void> {
  const existing = await stat(file).catch(() => undefined);
  if (existing === undefined) {
    const handle = await open(file, "wx", 0o600).catch(() => undefined);
    await handle?.close();
  } else if (existing.isFile() && (existing.mode & 0o077) !== 0) await chmod(file, existing.mode & 0o700).catch(() => {});
}

/** JSON with every object's keys sorted: equal for equal values, whatever order they were written in. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

/** The sha256 of a value's canonical JSON, as `sha256:<hex>`. */
export function canonicalHash(value: unknown): string {
  return `sha256:${createHash("sha256").update(canonicalJson(value)).digest("hex")}`;
}
