/**
 * The assistant surface under `/anya`. The reference says it exists, that the `anya`
 * entitlement gates it and API scopes do not, that a key granted the Workflows scopes is not
 * thereby granted it, and that its contents are not shown. So the local service keeps the
 * gate and nothing behind it:
 *
 * - the caller is authenticated as on the Workflows API (401 `UNAUTHENTICATED`; an API key,
 *   a session JWT or an OAuth token);
 * - an account that does not hold the entitlement (`policy.ts`, `accountHas`) gets `402
 *   plan_required` with `required_feature: "anya"`, the body of the other plan refusals;
 * - past the gate, whatever the key's scopes (a read-only key is not refused for scope), every
 *   method and path answers `404 not_shown`.
 *
 * No other gate of the Workflows API (product, plan feature, region, scope, acceptance) is
 * applied: the reference names the entitlement as this surface's gate and no other.
 */
import type { Context, Hono } from "hono";
import { errors } from "./errors.js";
import { clientIp } from "./request.js";
import { accountHas, ANYA_PATH } from "./policy.js";
import type { WorkflowsService } from "./service.js";

function gate(c: Context, service: WorkflowsService): void {
  const caller = service.auth.authenticate(c.req.header("Authorization"), clientIp(c));
  const user = service.user(caller.userId);
  const account = user && service.account(user.accountId);
  if (!account) throw errors.unauthenticated("The credential's user no longer exists");
  if (!accountHas(account, "anya")) throw errors.planRequired("anya", account.plan);
}

export function anyaRoutes(app: Hono, service: WorkflowsService): void {
  const handle = (c: Context): Response => {
    gate(c, service);
    throw errors.anyaNotShown(c.req.method, c.req.path);
  };
  app.all(ANYA_PATH, handle);
  app.all(`${ANYA_PATH}/*`, handle);
}
