/**
 * wfkit's editor protocol beyond the LSP: the requests, notification and commands the
 * server answers and the shapes of their results, declared once. The server (`server/` and
 * `browser/`), the VS Code extension and the playground import it from here
 * (`@wfkit/language-server/protocol`); docs/editor.md describes them. Plain data and types,
 * so any client can import it without the protocol library.
 */
import type { GraphPictureNode } from "./service/features/graph-picture.js";

export type { GraphPictureNode };

/** The method name of each wfkit request and notification. */
export const WFKIT_METHODS = {
  /** Request: the Definition JSON a `.wf` document compiles to (`{uri}` → CompileResult). */
  compile: "wfkit/compile",
  /** Request: `.wf` text for a Definition JSON text (`{text}` → DecompileResult). */
  decompile: "wfkit/decompile",
  /** Request: the cost estimate of a document (`{uri}` → EstimateResult). */
  estimate: "wfkit/estimate",
  /** Request: the graph drawn as SVG, for the editor's preview (`{uri}` → GraphResult). */
  graph: "wfkit/graph",
  /** Notification from the browser server after each check: CheckedParams. */
  checked: "wfkit/checked",
} as const;

/** The commands the server runs (`workspace/executeCommand`), offered by its lenses and fixes. */
export const WFKIT_COMMANDS = {
  /** The estimate lens: shows the estimate's parts. */
  showEstimate: "wfkit.showEstimate",
  /** The pin quick fix: resolves a subject through the Workflows API and applies the edit. */
  pinSubjectRemote: "wfkit.pinSubjectRemote",
} as const;

export interface UriParams {
  uri: string;
}
export interface TextParams {
  text: string;
}

export type CompileResult = { json: string; ok: boolean } | { error: string };
export type DecompileResult = { text: string } | { error: string };
/** One part's share of an estimate. */
export interface EstimatePart {
  nodeId: string;
  partId: string;
  costMinorUnits: number;
}
export type EstimateResult = { costMinorUnits: number; parts: EstimatePart[]; ok: boolean; errors: number } | { error: string };
/** The live graph: the SVG drawing and each node's declaration (see service/features/graph-picture.ts). */
export type GraphResult = { version: number; svg: string; nodes: GraphPictureNode[] } | { error: string };

export interface CheckedParams {
  uri: string;
  version: number;
  errors: number;
  warnings: number;
  /** Absent when syntax errors leave the definition uncertain. */
  costMinorUnits: number | undefined;
}
