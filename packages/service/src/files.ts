/**
 * The seed and mock files: their JSON Schemas (published in `schema/`), the checks a schema
 * cannot state, and the default seed. Loading never throws a stack at the user: a problem is
 * a `ConfigFileError` naming the file, the place (JSON Pointer) and what to do.
 */
import { Ajv, type ErrorObject } from "ajv";
import { indexCatalogue, type Catalogue } from "@wfkit/core";
import seedSchema from "./schema/seed.schema.json" with { type: "json" };
import mocksSchema from "./schema/mocks.schema.json" with { type: "json" };
import { RESEARCH_PRODUCT, type Entitlement, type PlanName, type Scope } from "./policy.js";

export class ConfigFileError extends Error {}

export interface SeedAccount {
  id: string;
  plan: PlanName;
  region?: string;
  acceptanceOutstanding?: boolean;
  allowanceMinorUnits?: number;
  /** Entitlements beyond the plan's features: `anya` opens the assistant surface (`/anya`). */
  entitlements?: Entitlement[];
}
export interface SeedKey {
  id: string;
  user: string;
  secret?: string;
  products?: string[];
  scopes: Scope[];
  expiresAt?: string;
  ipAllowlist?: string[];
  role?: "read" | "write";
}
export interface Seed {
  accounts: SeedAccount[];
  organisations?: { id: string; name?: string }[];
  users: { id: string; account: string; organisation?: string; name?: string }[];
  apiKeys?: SeedKey[];
  oauthTokens?: { user: string; token: string }[];
  /** Consumer Signals alert tokens (`X-Alert-Token`); a random one is made when `token` is absent. */
  alertTokens?: { user: string; token?: string }[];
}

/** One account on a higher tier, its owner, one read-only and one write key, and the owner's alert token. */
export const DEFAULT_SEED: Seed = {
  accounts: [{ id: "acct_default", plan: "professional", region: "eu", allowanceMinorUnits: 100_000 }],
  organisations: [{ id: "org_default", name: "Default organisation" }],
  users: [{ id: "usr_owner", account: "acct_default", organisation: "org_default", name: "Owner" }],
  apiKeys: [
    { id: "read", user: "usr_owner", products: [RESEARCH_PRODUCT], scopes: ["read:workflows"], role: "read" },
    { id: "write", user: "usr_owner", products: [RESEARCH_PRODUCT], scopes: ["write:workflows"], role: "write" },
  ],
  alertTokens: [{ user: "usr_owner" }],
};

const ajv = new Ajv({ allErrors: true, strict: true, useDefaults: false });
const validateSeedShape = ajv.compile<Seed>(seedSchema);
const validateMocksShape = ajv.compile<MockFile>(mocksSchema);

function describe(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).slice(0, 5).map((error) => `${error.instancePath || "(the document)"}: ${error.message ?? "is not valid"}${error.params && "allowedValues" in error.params ? ` (${(error.params.allowedValues as unknown[]).join(", ")})` : ""}`);
}

/** One line, as every CLI error is (the problems are joined with "; "). */
function fail(source: string, problems: string[]): never {
  throw new ConfigFileError(`${source} is not valid: ${problems.join("; ")}`);
}

/** Checks a parsed seed file; `source` names it in messages. */
export function loadSeed(value: unknown, source: string): Seed {
  if (!validateSeedShape(value)) fail(source, describe(validateSeedShape.errors));
  const seed = value;
  const problems: string[] = [];
  const accounts = new Set(seed.accounts.map((account) => account.id));
  const organisations = new Set((seed.organisations ?? []).map((organisation) => organisation.id));
  const users = new Set(seed.users.map((user) => user.id));
  const unique = (ids: string[], what: string, pointer: string) =>
    ids.forEach((id, i) => ids.indexOf(id) !== i && problems.push(`${pointer}/${i}/id: ${what} \`${id}\` is declared twice`));
  unique(seed.accounts.map((a) => a.id), "account", "/accounts");
  unique(seed.users.map((u) => u.id), "user", "/users");
  unique((seed.apiKeys ?? []).map((k) => k.id), "key", "/apiKeys");
  seed.users.forEach((user, i) => {
    if (!accounts.has(user.account)) problems.push(`/users/${i}/account: no account \`${user.account}\` is declared in /accounts`);
    if (user.organisation !== undefined && !organisations.has(user.organisation)) problems.push(`/users/${i}/organisation: no organisation \`${user.organisation}\` is declared in /organisations`);
  });
  const roles = new Set<string>();
  (seed.apiKeys ?? []).forEach((key, i) => {
    if (!users.has(key.user)) problems.push(`/apiKeys/${i}/user: no user \`${key.user}\` is declared in /users`);
    if (key.expiresAt !== undefined && Number.isNaN(Date.parse(key.expiresAt))) problems.push(`/apiKeys/${i}/expiresAt: \`${key.expiresAt}\` is not a date and time (write 2027-01-01T00:00:00Z)`);
    if (key.role) {
      if (roles.has(key.role)) problems.push(`/apiKeys/${i}/role: only one key may be the \`${key.role}\` key`);
      roles.add(key.role);
    }
  });
  (seed.oauthTokens ?? []).forEach((token, i) => {
    if (!users.has(token.user)) problems.push(`/oauthTokens/${i}/user: no user \`${token.user}\` is declared in /users`);
  });
  const alertTokens = (seed.alertTokens ?? []).map((token) => token.token ?? "");
  (seed.alertTokens ?? []).forEach((token, i) => {
    if (!users.has(token.user)) problems.push(`/alertTokens/${i}/user: no user \`${token.user}\` is declared in /users`);
    if (token.token !== undefined && alertTokens.indexOf(token.token) !== i) problems.push(`/alertTokens/${i}/token: this token is declared twice`);
  });
  if (problems.length) fail(source, problems);
  return seed;
}

export type MockResponse = { value: Record<string, unknown> } | { belowFloor: Record<string, unknown> } | { failure: { code: string; message?: string } };
export type MockSequence = Record<string, MockResponse>;
export interface MockCase {
  parts?: Record<string, MockSequence>;
  nodes?: Record<string, { partId: string; responses: MockSequence }>;
}
export interface MockFile {
  delayMs?: number;
  partDelayMs?: Record<string, number>;
  cases?: Record<string, MockCase>;
}

export const DEFAULT_PART_DELAY_MS = 100;

/**
 * Checks a parsed mock file against the schema and the catalogue: every part it names must
 * exist, and every value (or below-floor value) must have a member for each type the part
 * produces, so that a run never hands a downstream part less than it requires.
 */
export function loadMocks(value: unknown, source: string, catalogue: Catalogue): MockFile {
  if (!validateMocksShape(value)) fail(source, describe(validateMocksShape.errors));
  const mocks = value;
  const { parts } = indexCatalogue(catalogue);
  const problems: string[] = [];
  const checkSequence = (partId: string, sequence: MockSequence, pointer: string) => {
    const part = parts.get(partId);
    if (!part) return problems.push(`${pointer}: the catalogue has no part \`${partId}\``);
    for (const [call, response] of Object.entries(sequence)) {
      const output = "value" in response ? response.value : "belowFloor" in response ? response.belowFloor : undefined;
      if (!output) continue;
      const missing = part.produces.filter((type) => !(type in output));
      if (missing.length)
        problems.push(`${pointer}/${call}: part \`${partId}\` produces ${part.produces.map((t) => `\`${t}\``).join(", ")}, but this output has no member ${missing.map((t) => `\`${t}\``).join(", ")}; add it (its value is what downstream parts receive)`);
    }
    return undefined;
  };
  for (const [partId] of Object.entries(mocks.partDelayMs ?? {})) if (!parts.has(partId)) problems.push(`/partDelayMs/${partId}: the catalogue has no part \`${partId}\``);
  for (const [name, mockCase] of Object.entries(mocks.cases ?? {})) {
    for (const [partId, sequence] of Object.entries(mockCase.parts ?? {})) checkSequence(partId, sequence, `/cases/${name}/parts/${partId}`);
    for (const [nodeId, entry] of Object.entries(mockCase.nodes ?? {})) checkSequence(entry.partId, entry.responses, `/cases/${name}/nodes/${nodeId}/responses`);
  }
  if (problems.length) fail(source, problems);
  return mocks;
}
