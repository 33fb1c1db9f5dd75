/** A fault: one mistake in a definition, named at its node and its place in the input. */
export type Severity = "error" | "warning";

export interface RelatedLocation {
  nodeId: string | null;
  /** JSON Pointer (RFC 6901) into the input. */
  pointer: string;
  message: string;
}

export interface Fault {
  /** Stable rule id, for example `part-unknown`; also the name of its doc page. */
  code: string;
  severity: Severity;
  /** What is wrong, why it matters, and what to do. */
  message: string;
  /** The node the fault is about; null for faults of the whole graph. */
  nodeId: string | null;
  /** Index of the edge, for faults about an edge. */
  edge?: number;
  /** JSON Pointer (RFC 6901) to the offending value in the input. */
  pointer: string;
  /** A replacement the user probably meant, for example `terminal.compare`. */
  suggestion?: string;
  related?: RelatedLocation[];
}

export interface EstimatePart {
  nodeId: string;
  partId: string;
  costMinorUnits: number;
}

/** What a run would reserve against the research usage allowance. */
export interface Estimate {
  costMinorUnits: number;
  parts: EstimatePart[];
}

/** Escapes one reference token of a JSON Pointer (RFC 6901). */
export function escapePointerToken(token: string | number): string {
  return String(token).replace(/~/g, "~0").replace(/\//g, "~1");
}

export function joinPointer(base: string, ...tokens: (string | number)[]): string {
  let pointer = base;
  for (const token of tokens) pointer += "/" + escapePointerToken(token);
  return pointer;
}

/** Splits a JSON Pointer into its unescaped reference tokens. */
export function parsePointer(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((token) => token.replace(/~1/g, "/").replace(/~0/g, "~"));
}
