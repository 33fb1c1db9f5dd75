/**
 * For the durability tests: the seed they start `wfkit serve --db` with (fixed secrets, so a
 * restart knows the same keys), and the writes and reads they make of it; the process itself
 * is test/support/serve-process.ts's.
 */
import { http, serve, type LaunchOptions, type Served } from "../../../test/support/serve-process.js";

export { http, launch, type Exited, type LaunchOptions } from "../../../test/support/serve-process.js";

export const V1 = "/api/v1/workflows";
export const secret = (name: string) => `${name}secret0123456789`;
export const key = (id: string) => `wfk_${id}_${secret(id)}`;

/** Two users on a plan with the API; fixed key and alert-token secrets, so a restart knows them. */
export const SEED = {
  accounts: [{ id: "pro", plan: "professional" }],
  users: [
    { id: "alice", account: "pro" },
    { id: "bob", account: "pro" },
  ],
  apiKeys: [
    { id: "read", user: "alice", scopes: ["read:workflows"], role: "read", secret: secret("read") },
    { id: "write", user: "alice", scopes: ["write:workflows"], role: "write", secret: secret("write") },
  ],
  alertTokens: [{ user: "alice", token: `wfat_${secret("alert")}` }],
};

/** A service that listens, as `launch` gives it. */
export type Started = Served;

/** `launch` that must start (the durability tests always give a directory). */
export function start(args: readonly string[], options: LaunchOptions & { cwd: string }): Promise<Started> {
  return serve(args, options.cwd, { umask000: options.umask000 });
}

/** Creates a workflow (one transaction, one journal entry) and returns its id once acknowledged. */
export async function createWorkflow(served: Started, name: string): Promise<string> {
  const reply = await http(served.baseUrl, "POST", V1, key("write"), { name });
  if (reply.status !== 201) throw new Error(`creating a workflow: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.workflow.id as string;
}

/** Whether the service knows a workflow (its run list answers 200, else 404). */
export async function knows(served: Started, workflowId: string): Promise<boolean> {
  const status = (await http(served.baseUrl, "GET", `${V1}/${workflowId}/runs`, key("read"))).status;
  if (status !== 200 && status !== 404) throw new Error(`unexpected ${status} for ${workflowId}`);
  return status === 200;
}
