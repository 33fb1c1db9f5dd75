/**
 * wfkit's requests beyond the LSP, used by the editor commands. Any client can send them;
 * they are documented in docs/editor.md.
 */
import { RequestType } from "vscode-languageserver";
import type { GraphPictureNode } from "../service/features/graph-picture.js";

export type CompileResult = { json: string; ok: boolean } | { error: string };
export type DecompileResult = { text: string } | { error: string };
/** The live graph: the SVG drawing and each node's declaration (see features/graph-picture.ts). */
export type GraphResult = { version: number; svg: string; nodes: GraphPictureNode[] } | { error: string };
export type EstimateResult = { costMinorUnits: number; parts: { nodeId: string; partId: string; costMinorUnits: number }[]; ok: boolean; errors: number } | { error: string };

export const WfkitRequests = {
  /** The Definition JSON a `.wf` document compiles to. */
  compile: new RequestType<{ uri: string }, CompileResult, void>("wfkit/compile"),
  /** `.wf` text for a Definition JSON text. */
  decompile: new RequestType<{ text: string }, DecompileResult, void>("wfkit/decompile"),
  /** The cost estimate of a document. */
  estimate: new RequestType<{ uri: string }, EstimateResult, void>("wfkit/estimate"),
  /** The graph drawn as SVG, for the editor's preview. */
  graph: new RequestType<{ uri: string }, GraphResult, void>("wfkit/graph"),
} as const;
