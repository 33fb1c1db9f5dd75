/**
 * The service-backed pin (`wfkit.pinSubjectRemote`): the quick fix that does for one subject
 * what `wfkit pin` does for a file. The language service offers it as a command action; this
 * transport runs it: it asks resolve-subjects for the subject's hint through @wfkit/client
 * and applies the rewrite (@wfkit/dsl's `subjectPinEdit`, the one `wfkit pin` uses) with
 * `workspace/applyEdit`. What stays unresolved is shown with its reason; an ambiguous hint
 * offers its candidates as the message's actions, and the one chosen is pinned.
 *
 * A service is configured for a document when both are known:
 * - the address: the `wfkit.service.baseUrl` setting, else the `baseUrl` of the document's
 *   wfkit.config.json (found as `wfkit check` finds it);
 * - the credential: the file the `wfkit.service.tokenFile` setting names (relative to the
 *   workspace folder), else the server process's `WFKIT_TOKEN`. It is never logged or shown.
 * Without both, the action is not offered.
 */
import * as path from "node:path";
import * as lsp from "vscode-languageserver/node";
import { isWorkflowsError, WorkflowsApiError, WorkflowsClient, WorkflowsNetworkError, WorkflowsProtocolError, type WorkflowsError } from "@wfkit/client";
import { subjectHintOf, subjectPinEdit, unresolvedReasonText, type CanonicalSubject, type SubjectStatement } from "@wfkit/dsl";
import { isServiceUrl, readRegularFile } from "@wfkit/project";
import type { WfkitDocument } from "../service/document.js";
import { invalidParams } from "./params.js";
import type { ServerSettings } from "./settings.js";

/** How long one pin may spend retrying a service that does not answer (the user waits on it); `WFKIT_RETRY_BUDGET_MS` overrides it, as for the CLI. */
const PIN_RETRY_BUDGET_MS = 10_000;

export interface ServiceTarget {
  baseUrl: string;
  retryBudgetMs: number;
  /** Where the credential comes from, for messages (never the credential itself). */
  credentialSource: string;
  credential: () => { ok: true; value: string } | { ok: false; problem: string };
}

/** The service configured for a document, or undefined when there is none. */
export function serviceFor(settings: ServerSettings, configBaseUrl: string | undefined, workspaceRoot: string | undefined, env: NodeJS.ProcessEnv): ServiceTarget | undefined {
  const baseUrl = settings.serviceBaseUrl ?? configBaseUrl;
  if (!baseUrl) return undefined;
  const budget = env.WFKIT_RETRY_BUDGET_MS;
  const retryBudgetMs = budget !== undefined && /^\d{1,7}$/.test(budget) ? Number(budget) : PIN_RETRY_BUDGET_MS;
  if (settings.serviceTokenFile) {
    const file = path.resolve(workspaceRoot ?? process.cwd(), settings.serviceTokenFile);
    return { baseUrl, retryBudgetMs, credentialSource: "the file `wfkit.service.tokenFile` names", credential: () => tokenFromFile(file, settings.serviceTokenFile!) };
  }
  const token = env.WFKIT_TOKEN?.trim();
  if (!token) return undefined;
  return { baseUrl, retryBudgetMs, credentialSource: "WFKIT_TOKEN", credential: () => ({ ok: true, value: token }) };
}

function tokenFromFile(file: string, named: string): { ok: true; value: string } | { ok: false; problem: string } {
  const read = readRegularFile(file);
  if (!read.ok) return { ok: false, problem: `cannot read the credential from ${named} (the \`wfkit.service.tokenFile\` setting): ${read.reason}` };
  const token = read.text.trim();
  // Never quote the file: it holds (or was meant to hold) a secret.
  if (!token || /\s/.test(token)) return { ok: false, problem: `${named} (the \`wfkit.service.tokenFile\` setting) must hold one credential and nothing else` };
  return { ok: true, value: token };
}

/** What the editor is asked to do once the service has answered. */
export type PinOutcome =
  | { kind: "edit"; range: { start: number; end: number }; newText: string; message: string }
  | { kind: "unchanged"; message: string }
  | { kind: "choose"; message: string; candidates: CanonicalSubject[]; hint: string }
  | { kind: "problem"; message: string };

/** The declaration of `name` in a document, if it still declares it with a hint. */
export function declaredSubject(document: WfkitDocument, name: string): { statement: SubjectStatement; hint: string; printed: string } | undefined {
  const statement = document.symbols?.declarationsOf("subject", name)[0]?.statement as SubjectStatement | undefined;
  if (statement?.type !== "subject") return undefined;
  const hint = subjectHintOf(statement, document.text);
  return hint ? { statement, hint: hint.hint, printed: hint.name } : undefined;
}

/** Asks the service for one hint; never throws for what the service or the network did. */
export async function resolveHint(target: ServiceTarget, hint: string): Promise<{ subject: CanonicalSubject } | { unresolved: { reason: string; candidates: CanonicalSubject[] } } | { problem: string }> {
  if (!isServiceUrl(target.baseUrl)) return { problem: `the Workflows API address must be an http or https address such as https://example.test (check \`wfkit.service.baseUrl\` or the config's \`baseUrl\`)` };
  const credential = target.credential();
  if (!credential.ok) return { problem: credential.problem };
  const client = new WorkflowsClient({ baseUrl: target.baseUrl, credential: credential.value, retry: { budgetMs: target.retryBudgetMs } });
  try {
    const answer = await client.resolveSubjects([hint]);
    const unresolved = answer.unresolved.find((u) => u.hint === hint);
    if (unresolved) return { unresolved: { reason: unresolved.reason, candidates: (unresolved.candidates ?? []).map(({ canonicalId, label }) => ({ canonicalId, label })) } };
    const subject = answer.subjects[0];
    return subject ? { subject: { canonicalId: subject.canonicalId, label: subject.label } } : { problem: "the service answered neither a subject nor a reason" };
  } catch (error) {
    if (isWorkflowsError(error)) return { problem: refusalText(error, target) };
    throw error;
  }
}

/** The outcome of pinning `name` to `subject` in the document as it is now. */
export function pinOutcome(document: WfkitDocument, name: string, hint: string, subject: CanonicalSubject): PinOutcome {
  const declared = declaredSubject(document, name);
  if (!declared) return { kind: "problem", message: `\`${name}\` is no longer declared with a hint; nothing was changed.` };
  if (declared.hint !== hint) return { kind: "problem", message: `\`${declared.printed}\` changed while the service was asked (${JSON.stringify(hint)}); nothing was changed. Run the fix again.` };
  const edit = subjectPinEdit(declared.statement, subject);
  if (!edit) return { kind: "unchanged", message: `\`${declared.printed}\` is already pinned as ${subject.canonicalId}.` };
  return { kind: "edit", range: { start: edit.start, end: edit.end }, newText: edit.text, message: `Pinned \`${declared.printed}\`: ${JSON.stringify(hint)} → ${subject.canonicalId} (${subject.label}).` };
}

/** The message for a hint the service left unresolved. */
export function unresolvedMessage(printed: string, hint: string, unresolved: { reason: string; candidates: CanonicalSubject[] }): string {
  const base = `\`${printed}\` was not pinned: ${JSON.stringify(hint)} is ${unresolvedReasonText(unresolved.reason)}.`;
  if (unresolved.reason === "ambiguous" && unresolved.candidates.length) return `${base} Choose the company meant, or write a more precise hint.`;
  if (unresolved.reason === "lookup_failed") return base;
  return `${base} Write its canonical id or another hint (a ticker, ISIN or full name).`;
}

/** One line, no credential: what the service or the network did and what to do. */
function refusalText(error: WorkflowsError, target: ServiceTarget): string {
  if (error instanceof WorkflowsNetworkError) return `the Workflows API at ${target.baseUrl} could not be reached (${error.message}); is the service running, and is the address right?`;
  // The message names the endpoint and what was wrong with its answer (a redirect elsewhere,
  // too large, not the reference's shape).
  if (error instanceof WorkflowsProtocolError) return `the answer from ${target.baseUrl} was not taken: ${error.message}`;
  if (!(error instanceof WorkflowsApiError)) return "the request to the Workflows API was interrupted";
  const tag = `(${error.status} ${error.code})`;
  if (error.kind === "unauthenticated") return `the credential was refused ${tag}: it is unknown, revoked or expired. Check ${target.credentialSource}.`;
  return `the Workflows API refused ${tag}: ${error.message}`;
}

export interface PinCommandContext {
  connection: lsp.Connection;
  /** The current version of an open document. */
  documentOf(uri: string): WfkitDocument | undefined;
  /** The service configured for a document. */
  serviceOf(uri: string): ServiceTarget | undefined;
}

/**
 * Runs `wfkit.pinSubjectRemote` with its arguments (the document's uri, the subject's name as
 * written). Every outcome is shown with `window/showMessage` and returned as the command's
 * result (`pinned` says whether the client accepted the edit).
 */
export async function runPinCommand(context: PinCommandContext, args: unknown): Promise<{ pinned: boolean; message: string }> {
  const [uri, name] = Array.isArray(args) ? args : [];
  if (typeof uri !== "string" || typeof name !== "string") throw invalidParams("wfkit.pinSubjectRemote takes the document's uri and the subject's name as its arguments");
  const { connection } = context;
  const show = (type: lsp.MessageType, message: string) => {
    // A notification: the client need not answer (showInformationMessage is a request).
    void connection.sendNotification(lsp.ShowMessageNotification.type, { type, message });
    return { pinned: false, message };
  };
  const document = context.documentOf(uri);
  if (!document) return show(lsp.MessageType.Error, "The document is not open in the language server; nothing was pinned.");
  const target = context.serviceOf(uri);
  if (!target) return show(lsp.MessageType.Error, "No Workflows API is configured: set `wfkit.service.baseUrl` (or `baseUrl` in wfkit.config.json) and WFKIT_TOKEN (or `wfkit.service.tokenFile`).");
  const declared = declaredSubject(document, name);
  if (!declared) return show(lsp.MessageType.Warning, `\`${name}\` is not declared with a hint to resolve; nothing was pinned.`);
  const resolved = await resolveHint(target, declared.hint);
  if ("problem" in resolved) return show(lsp.MessageType.Error, `\`${declared.printed}\` was not pinned: ${resolved.problem}`);
  let subject: CanonicalSubject | undefined;
  if ("unresolved" in resolved) {
    const message = unresolvedMessage(declared.printed, declared.hint, resolved.unresolved);
    if (!resolved.unresolved.candidates.length) return show(lsp.MessageType.Warning, message);
    subject = await chooseCandidate(connection, message, resolved.unresolved.candidates);
    if (!subject) return { pinned: false, message };
  } else subject = resolved.subject;
  const now = context.documentOf(uri);
  if (!now) return show(lsp.MessageType.Warning, "The document was closed while the service was asked; nothing was pinned.");
  const outcome = pinOutcome(now, name, declared.hint, subject);
  if (outcome.kind !== "edit") return show(outcome.kind === "unchanged" ? lsp.MessageType.Info : lsp.MessageType.Warning, outcome.message);
  const edit = { range: now.lines.rangeOf(outcome.range.start, outcome.range.end), newText: outcome.newText };
  const applied = await connection.workspace.applyEdit({ label: `Pin ${declared.printed}`, edit: { changes: { [uri]: [edit] } } });
  if (!applied.applied) return show(lsp.MessageType.Warning, `The editor did not apply the pin of \`${declared.printed}\`${applied.failureReason ? `: ${applied.failureReason}` : ""}.`);
  return { ...show(lsp.MessageType.Info, outcome.message), pinned: true };
}

/** An ambiguous hint: one action per candidate on the message; the one chosen, if any. */
async function chooseCandidate(connection: lsp.Connection, message: string, candidates: CanonicalSubject[]): Promise<CanonicalSubject | undefined> {
  const actions = candidates.map((candidate) => ({ title: `${candidate.canonicalId} (${candidate.label})` }));
  try {
    const chosen = await connection.sendRequest(lsp.ShowMessageRequest.type, { type: lsp.MessageType.Warning, message, actions });
    return chosen ? candidates[actions.findIndex((action) => action.title === chosen.title)] : undefined;
  } catch {
    // A client without message actions: say it plainly, with the candidates.
    void connection.sendNotification(lsp.ShowMessageNotification.type, { type: lsp.MessageType.Warning, message: `${message} Candidates: ${actions.map((a) => a.title).join(", ")}.` });
    return undefined;
  }
}
