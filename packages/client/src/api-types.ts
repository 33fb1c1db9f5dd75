/**
 * The Workflows API on the wire: its request and response bodies and enumerations are
 * @wfkit/api's, the contract the service answers by; re-exported here so that code importing
 * them from @wfkit/client keeps working.
 */
export { TERMINAL_RUN_STATES } from "@wfkit/api";
export type {
  Scope,
  Feature,
  RunState,
  RunFilter,
  NodeState,
  PartsResponse,
  ResolveSubjectsRequest,
  ResolvedSubject,
  UnresolvedReason,
  UnresolvedHint,
  ResolveSubjectsResponse,
  ValidateDefinitionResponse,
  Template,
  CreateWorkflowResponse,
  SaveVersionRequest,
  SaveVersionResponse,
  PublishResponse,
  StartRunRequest,
  StartRunResponse,
  RunSummary,
  ChildRun,
  RunNodeView,
  Run,
  RunListResponse,
  RunChangeResponse,
  ErrorBody,
} from "@wfkit/api";
