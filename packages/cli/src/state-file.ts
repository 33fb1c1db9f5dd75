/**
 * `.wfkit/state.json`, the project's memory of the service: which workflow id each name was
 * deployed as, and the Idempotency-Key of every run start that has been sent but whose answer
 * has not been recorded yet. Written atomically (atomic-write.ts) before the request it
 * protects, so a crash at any moment leaves either the old state or the new one.
 *
 *   {"version": 1, "baseUrls": {"<base url>": {"workflows": {"<name>": "<id>"}, "pendingRuns": {"<workflow id> <question>": "<key>"}}}}
 *
 * Kept per base URL: a local `wfkit serve` and the real service give different ids.
 */
import { mkdir } from "./fs-lazy.js";
import path from "node:path";
import { readRegularFile } from "@wfkit/project";
import { writeFileAtomic } from "./atomic-write.js";
import { CliError } from "./errors.js";

export const STATE_DIRECTORY = ".wfkit";
export const STATE_FILE = "state.json";

interface ServiceState {
  workflows: Record<string, string>;
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
    const entry = Object.hasOwn(document.baseUrls, key) ? document.baseUrls[key]! : (document.baseUrls[key] = { workflows: {}, pendingRuns: {} });
    entry.workflows ??= {};
    entry.pendingRuns ??= {};
    return entry;
  }

  private async update(change: (state: ServiceState) => void): Promise<void> {
    const document = this.read();
    change(this.service(document));
    await mkdir(path.dirname(this.path), { recursive: true }).catch((error: Error) => {
      throw new CliError(`cannot create ${STATE_DIRECTORY}/: ${error.message}`);
    });
    await writeFileAtomic(this.path, JSON.stringify(document, null, 2) + "\n", this.displayPath);
  }

  workflowId(name: string): string | undefined {
    const workflows = this.service(this.read()).workflows;
    return Object.hasOwn(workflows, name) ? workflows[name] : undefined;
  }

  rememberWorkflow(name: string, id: string): Promise<void> {
    return this.update((state) => (state.workflows[name] = id));
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
