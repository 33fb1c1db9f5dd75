/**
 * What the extension does, written against the small slice of the VS Code API it needs
 * (`EditorHost`), so that it can be unit-tested without VS Code. extension.ts binds the
 * real `vscode` module and `vscode-languageclient` to it.
 */

import { WFKIT_METHODS, type CompileResult, type DecompileResult, type EstimateResult } from "@wfkit/language-server/protocol";

/** The server requests the commands use: the editor protocol's, declared once in the language server. */
export const REQUESTS = WFKIT_METHODS;

export interface ActiveDocument {
  uri: string;
  languageId: string;
  fileName: string;
  text: string;
}

/** The part of VS Code and the language client the commands touch. */
export interface EditorHost {
  activeDocument(): ActiveDocument | undefined;
  /** Opens an untitled editor with `content` in `language`. */
  openUntitled(content: string, language: string): Promise<void>;
  showInformation(message: string, detail?: string): void;
  showError(message: string): void;
  /**
   * Shows rows to read under a title, in a list the user closes (a QuickPick), and resolves
   * with the index of the row picked, if any. VS Code shows a message's `detail` only in modal
   * messages, so a list is where several lines can be read.
   */
  showList(title: string, rows: ListRow[], placeholder?: string): Promise<number | undefined>;
  /** Moves the cursor to the declaration of the node `nodeId` in the document `uri`, if it has one. */
  revealNode(uri: string, nodeId: string): Promise<void>;
  sendRequest<R>(method: string, params: unknown): Promise<R>;
}

export interface ListRow {
  label: string;
  description?: string;
}

export type { CompileResult, DecompileResult, EstimateResult };

export const COMMANDS = {
  compileToJson: "wfkit.compileToJson",
  decompileJson: "wfkit.decompileJson",
  showEstimate: "wfkit.showEstimate",
  showGraph: "wfkit.showGraph",
} as const;

export function isWfDocument(document: ActiveDocument): boolean {
  return document.languageId === "wf" || document.fileName.endsWith(".wf");
}

export function isJsonDocument(document: ActiveDocument): boolean {
  return document.languageId === "json" || document.languageId === "jsonc" || document.fileName.endsWith(".json");
}

/** Compile to JSON: the Definition the open `.wf` file stands for, in a new editor. */
export async function compileToJson(host: EditorHost): Promise<void> {
  const document = host.activeDocument();
  if (!document || !isWfDocument(document)) return host.showError("Compile to JSON works on a .wf file: open one first.");
  const result = await host.sendRequest<CompileResult>(REQUESTS.compile, { uri: document.uri });
  if ("error" in result) return host.showError(`Could not compile ${baseName(document.fileName)}: ${result.error}`);
  await host.openUntitled(result.json, "json");
  if (!result.ok) host.showInformation("The workflow compiled, but it has errors: see the Problems panel.");
}

/** Decompile JSON to .wf: the `.wf` text of the open Definition JSON, in a new editor. */
export async function decompileJson(host: EditorHost): Promise<void> {
  const document = host.activeDocument();
  if (!document || !isJsonDocument(document)) return host.showError("Decompile JSON to .wf works on a Definition JSON file: open one first.");
  const result = await host.sendRequest<DecompileResult>(REQUESTS.decompile, { text: document.text });
  if ("error" in result) return host.showError(`Could not decompile ${baseName(document.fileName)}: ${result.error}`);
  await host.openUntitled(result.text, "wf");
}

/**
 * Show estimate: what a run of the open workflow would reserve, part by part: the total and
 * the verdict as the list's title, a row per part (`compare (terminal.compare): 200 minor
 * units`); picking a row moves the cursor to that part's declaration.
 */
export async function showEstimate(host: EditorHost, uri?: string): Promise<void> {
  const document = host.activeDocument();
  const target = uri ?? document?.uri;
  if (!target) return host.showError("Show estimate needs an open .wf or Definition JSON file.");
  const result = await host.sendRequest<EstimateResult>(REQUESTS.estimate, { uri: target });
  if ("error" in result) return host.showError(`No estimate: ${result.error}`);
  const picked = await host.showList(estimateSummary(result), estimateRows(result), result.parts.length ? "Pick a part to go to its declaration" : undefined);
  const part = picked === undefined ? undefined : result.parts[picked];
  if (part) await host.revealNode(target, part.nodeId);
}

export function formatMinorUnits(minorUnits: number): string {
  return `${minorUnits.toLocaleString("en")} minor unit${minorUnits === 1 ? "" : "s"}`;
}

export function estimateSummary(result: Exclude<EstimateResult, { error: string }>): string {
  const verdict = result.ok ? "valid" : `${result.errors} error${result.errors === 1 ? "" : "s"}, so this figure may be incomplete`;
  return `Estimated cost: ${formatMinorUnits(result.costMinorUnits)} (${verdict}).`;
}

/** The estimate's lines, one per part, as `showEstimate` lists them (or one saying there are none). */
export function estimateDetail(result: Exclude<EstimateResult, { error: string }>): string {
  return estimateRows(result).map((row) => row.label).join("\n");
}

export function estimateRows(result: Exclude<EstimateResult, { error: string }>): ListRow[] {
  if (!result.parts.length) return [{ label: "No part in this workflow has a known cost." }];
  return result.parts.map((part) => ({ label: `${part.nodeId} (${part.partId}): ${formatMinorUnits(part.costMinorUnits)}` }));
}

export function baseName(fileName: string): string {
  return fileName.split(/[\\/]/).pop() ?? fileName;
}

/** The client options the extension gives vscode-languageclient (plain data, so it is testable). */
export type DocumentFilter = { language: string; scheme: string; pattern?: string } | { language: string; pattern: string; scheme?: string };

/**
 * `.wf` files, and every JSON document: which JSON the server checks is its own decision,
 * from the content (`*.workflow.json`, or a top level with `schemaVersion` or `scope`), so a
 * narrower selector here would hide from it JSON that the docs promise is checked.
 */
export function documentSelector(): DocumentFilter[] {
  return ["wf", "json", "jsonc"].flatMap((language) => [
    { language, scheme: "file" },
    { language, scheme: "untitled" },
  ]);
}

/**
 * The server registers the code lens's command (`wfkit.showEstimate`) for every client, and
 * vscode-languageclient then owns that command in VS Code; this middleware shows the estimate
 * VS Code's way (a list with a row per part, `showEstimate`) and passes other commands on.
 */
export function executeCommandMiddleware(host: () => EditorHost) {
  return (command: string, args: unknown[], next: (command: string, args: unknown[]) => unknown): unknown =>
    command === COMMANDS.showEstimate ? showEstimate(host(), typeof args[0] === "string" ? args[0] : undefined) : next(command, args);
}

/** The settings handed to the server at start-up (it pulls later changes itself). */
export function initializationOptions(getSetting: (key: string) => unknown): { settings: Record<string, unknown> } {
  return {
    settings: {
      catalogue: getSetting("catalogue"),
      diagnostics: { debounceMs: getSetting("diagnostics.debounceMs") },
      rules: { docsBaseUrl: getSetting("rules.docsBaseUrl") },
      inlayHints: { cost: getSetting("inlayHints.cost") },
    },
  };
}
