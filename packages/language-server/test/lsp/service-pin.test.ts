/**
 * The service-backed pin over the protocol: the built server (stdio JSON-RPC) against
 * `wfkit serve` (the built CLI, loopback HTTP). The quick fix is offered on
 * `subject-not-canonical` only when a service is configured; running its command resolves the
 * hint and sends `workspace/applyEdit`; what stays unresolved is shown with its reason.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { CodeAction, Diagnostic, TextEdit } from "vscode-languageserver-protocol";
import { ensureBuilt } from "../../../../test/support/built-cli.js";
import { serve, type Served } from "../../../../test/support/serve-process.js";
import { LspTestClient, type StartOptions } from "../../../../test/support/lsp-client.js";
import { applyTextEdits } from "../support/fixtures.js";

const COMMAND = "wfkit.pinSubjectRemote";

/** A graph whose first subject is declared as `body` (a name or hint, so `subject-not-canonical`). */
const graph = (body: string) => `workflow "grocers"

subject first = ${body} # kept: only the body changes
subject sainsbury = company "cmp_sbry" "J Sainsbury plc"

trigger start on_demand
part compare = terminal.compare@1 { job compare.peers@1 subjects [first, sainsbury] }
destination inbox standalone

start -> compare -> inbox
`;

let served: Served;
const made: string[] = [];
let client: LspTestClient | undefined;

beforeAll(async () => {
  ensureBuilt();
  served = await serve([]);
});
afterAll(async () => {
  await served?.stop();
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});
afterEach(async () => {
  if (client) expect(await client.stop()).toBe(0);
  client = undefined;
});

/** A workspace with `flows/a.wf` holding `text`, and a config with `baseUrl` when `configured`. */
function workspace(text: string, configured: boolean): { root: string; uri: string } {
  const root = mkdtempSync(path.join(tmpdir(), "wfkit-lsp-pin-"));
  made.push(root);
  mkdirSync(path.join(root, "flows"));
  writeFileSync(path.join(root, "flows", "a.wf"), text);
  if (configured) writeFileSync(path.join(root, "wfkit.config.json"), JSON.stringify({ baseUrl: served.baseUrl }));
  return { root, uri: pathToFileURL(path.join(root, "flows", "a.wf")).href };
}

/** Starts a server on the workspace, opens the file and returns the pin fault's code actions. */
async function actionsOn(text: string, configured: boolean, options: StartOptions = {}): Promise<{ uri: string; root: string; actions: CodeAction[] }> {
  const { root, uri } = workspace(text, configured);
  client = await LspTestClient.start({ rootUri: pathToFileURL(root).href, ...options, env: { WFKIT_TOKEN: served.keys.read!, ...options.env } });
  await client.open(uri, text, "wf", 1);
  const { diagnostics } = await client.diagnosticsMatching(uri, (list) => list.some((d) => d.code === "subject-not-canonical"));
  const fault = diagnostics.find((d) => d.code === "subject-not-canonical") as Diagnostic;
  const actions = await client.request<CodeAction[]>("textDocument/codeAction", { textDocument: { uri }, range: fault.range, context: { diagnostics: [fault] } });
  return { uri, root, actions };
}

const remote = (actions: CodeAction[]) => actions.filter((action) => action.command?.command === COMMAND);

async function run(action: CodeAction): Promise<{ pinned: boolean; message: string }> {
  return client!.request("workspace/executeCommand", { command: action.command!.command, arguments: action.command!.arguments });
}

describe("pinning a subject through the Workflows API", () => {
  it("is offered on a name-as-subject, and running it applies the canonical id and label", async () => {
    const text = graph('{"hint": "Tesco"}');
    const { uri, actions } = await actionsOn(text, true);
    expect(client!.initializeResult.capabilities.executeCommandProvider?.commands).toContain(COMMAND);
    const [pin] = remote(actions);
    expect(pin?.title).toBe('Pin `first` through the Workflows API (resolve "Tesco")');
    expect(pin!.edit).toBeUndefined();
    expect(await run(pin!)).toEqual({ pinned: true, message: 'Pinned `first`: "Tesco" → cmp_tesco (Tesco PLC).' });
    expect(client!.appliedEdits).toHaveLength(1);
    const edits = client!.appliedEdits[0]!.edit.changes![uri] as TextEdit[];
    expect(applyTextEdits(text, edits)).toBe(graph('company "cmp_tesco" "Tesco PLC"'));
  });

  it("keeps the label of a typed subject and changes only its id", async () => {
    const text = graph('company "TSCO.L" "Tesco, as we call it"');
    const { uri, actions } = await actionsOn(text, true);
    await run(remote(actions)[0]!);
    expect(applyTextEdits(text, client!.appliedEdits[0]!.edit.changes![uri] as TextEdit[])).toBe(graph('company "cmp_tesco" "Tesco, as we call it"'));
  });

  it("takes the address and the credential file from the settings", async () => {
    const text = graph('{"hint": "Ocado"}');
    const dir = mkdtempSync(path.join(tmpdir(), "wfkit-lsp-token-"));
    made.push(dir);
    writeFileSync(path.join(dir, "token"), `${served.keys.read}\n`);
    const settings = { service: { baseUrl: served.baseUrl, tokenFile: path.join(dir, "token") } };
    const { uri, actions } = await actionsOn(text, false, { initializationOptions: { settings }, env: { WFKIT_TOKEN: "" } });
    expect((await run(remote(actions)[0]!)).pinned).toBe(true);
    expect(applyTextEdits(text, client!.appliedEdits[0]!.edit.changes![uri] as TextEdit[])).toBe(graph('company "cmp_ocdo" "Ocado Group plc"'));
    // The credential is never shown or logged.
    expect(JSON.stringify([client!.shown, client!.logs, client!.stderr])).not.toContain(served.keys.read!);
  });

  it("is not offered without a service address, nor without a credential", async () => {
    // A label the catalogue's table knows: its own pin (no service needed) is offered either way.
    const local = "Pin as `cmp_tesco` (Tesco PLC)";
    const noAddress = await actionsOn(graph('{"hint": "Tesco PLC"}'), false);
    expect(noAddress.actions.map((action) => action.title)).toEqual([local]);
    expect(await client!.stop()).toBe(0);
    const noCredential = await actionsOn(graph('{"hint": "Tesco PLC"}'), true, { env: { WFKIT_TOKEN: "" } });
    expect(noCredential.actions.map((action) => action.title)).toEqual([local]);
    expect(await client!.stop()).toBe(0);
    const configured = await actionsOn(graph('{"hint": "Tesco PLC"}'), true);
    expect(configured.actions.map((action) => action.title)).toEqual([local, 'Pin `first` through the Workflows API (resolve "Tesco PLC")']);
  });

  it("shows why a hint stayed unresolved and changes nothing", async () => {
    const { actions } = await actionsOn(graph('{"hint": "No Such Grocer"}'), true);
    const result = await run(remote(actions)[0]!);
    expect(result.pinned).toBe(false);
    expect(client!.shown.at(-1)).toEqual({ type: 2, message: '`first` was not pinned: "No Such Grocer" is not_found: no company matches. Write its canonical id or another hint (a ticker, ISIN or full name).' });
    expect(client!.appliedEdits).toEqual([]);
  });

  it("offers an ambiguous hint's candidates, and pins the one chosen", async () => {
    const text = graph('{"hint": "plc"}');
    const { uri, actions } = await actionsOn(text, true, { chooseAction: (params) => params.actions!.find((action) => action.title.startsWith("cmp_sbry")) ?? null });
    expect((await run(remote(actions)[0]!)).pinned).toBe(true);
    expect(client!.asked).toHaveLength(1);
    expect(client!.asked[0]!.message).toContain('"plc" is ambiguous: more than one company matches');
    expect(client!.asked[0]!.actions!.map((action) => action.title)).toEqual(["cmp_tesco (Tesco PLC)", "cmp_sbry (J Sainsbury plc)", "cmp_ocdo (Ocado Group plc)"]);
    expect(applyTextEdits(text, client!.appliedEdits[0]!.edit.changes![uri] as TextEdit[])).toBe(graph('company "cmp_sbry" "J Sainsbury plc"'));
  });

  it("says the service cannot be reached, without a stack trace", async () => {
    const { root, uri } = workspace(graph('{"hint": "Tesco"}'), false);
    // A closed port on loopback: the connection is refused at once.
    const settings = { service: { baseUrl: "http://127.0.0.1:9" } };
    client = await LspTestClient.start({ rootUri: pathToFileURL(root).href, initializationOptions: { settings }, env: { WFKIT_TOKEN: served.keys.read!, WFKIT_RETRY_BUDGET_MS: "300" } });
    await client.open(uri, graph('{"hint": "Tesco"}'), "wf", 1);
    const result = await client.request<{ pinned: boolean; message: string }>("workspace/executeCommand", { command: COMMAND, arguments: [uri, "first"] });
    expect(result.pinned).toBe(false);
    expect(result.message).toMatch(/^`first` was not pinned: the Workflows API at http:\/\/127\.0\.0\.1:9 could not be reached \(.+\); is the service running, and is the address right\?$/);
    expect(client.shown.at(-1)?.type).toBe(1);
  });

  it.each([
    ["null", "null", /the answer is null where an object belongs/],
    ["an array", "[]", /an array where an object belongs/],
    ["a redirect elsewhere", "redirect", /another origin/],
  ])("says the service's answer was not taken when it is %s, changing nothing", async (_what, answer, reason) => {
    const hostile = createServer((request, response) => {
      if (answer === "redirect") {
        response.writeHead(307, { Location: "http://127.0.0.2:1/elsewhere" });
        return void response.end();
      }
      request.resume();
      response.writeHead(200, { "Content-Type": "application/json" });
      response.end(answer);
    });
    await new Promise<void>((resolve) => hostile.listen(0, "127.0.0.1", resolve));
    try {
      const baseUrl = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`;
      const { root, uri } = workspace(graph('{"hint": "Tesco"}'), false);
      client = await LspTestClient.start({ rootUri: pathToFileURL(root).href, initializationOptions: { settings: { service: { baseUrl } } }, env: { WFKIT_TOKEN: served.keys.read!, WFKIT_RETRY_BUDGET_MS: "300" } });
      await client.open(uri, graph('{"hint": "Tesco"}'), "wf", 1);
      const result = await client.request<{ pinned: boolean; message: string }>("workspace/executeCommand", { command: COMMAND, arguments: [uri, "first"] });
      expect(result.pinned).toBe(false);
      expect(result.message).toMatch(new RegExp(`^\`first\` was not pinned: the answer from ${baseUrl.replace(/\./g, "\\.")} was not taken: `));
      expect(result.message).toMatch(reason);
      expect(result.message).not.toMatch(/interrupted|\n\s+at /);
    } finally {
      await new Promise<void>((resolve) => hostile.close(() => resolve()));
    }
  });
});
