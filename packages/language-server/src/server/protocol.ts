/**
 * The editor protocol (../protocol.ts) as the LSP library's typed messages, for the handlers.
 * Nothing is declared here that ../protocol.ts does not say.
 */
import { NotificationType, RequestType } from "vscode-languageserver";
import { WFKIT_METHODS, type CheckedParams, type CompileResult, type DecompileResult, type EstimateResult, type GraphResult, type TextParams, type UriParams } from "../protocol.js";

export type { CheckedParams, CompileResult, DecompileResult, EstimateResult, GraphResult } from "../protocol.js";

export const WfkitRequests = {
  compile: new RequestType<UriParams, CompileResult, void>(WFKIT_METHODS.compile),
  decompile: new RequestType<TextParams, DecompileResult, void>(WFKIT_METHODS.decompile),
  estimate: new RequestType<UriParams, EstimateResult, void>(WFKIT_METHODS.estimate),
  graph: new RequestType<UriParams, GraphResult, void>(WFKIT_METHODS.graph),
} as const;

export const WfkitNotifications = {
  checked: new NotificationType<CheckedParams>(WFKIT_METHODS.checked),
} as const;
