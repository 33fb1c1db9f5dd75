/**
 * A document as the service sees it: one immutable version of a `.wf` or Definition JSON
 * text, the catalogue it is checked against, and its analysis, computed on first use.
 *
 * Versions of one document share an incremental parser (`.wf`), so `updateDocument` on the
 * latest version is cheap. Only the latest version of a document may be queried: reusing
 * a parse moves its syntax trees (see wf/incremental-parser.ts).
 */
import type { Catalogue } from "@wfkit/core";
import { analyzeDocument, type Analysis } from "./analysis.js";
import { LineMap } from "./text.js";
import type { Language } from "./types.js";
import { IncrementalParser } from "./wf/incremental-parser.js";

export class WfkitDocument {
  private lineMap: LineMap | undefined;
  private analysisResult: Analysis | undefined;

  constructor(
    readonly uri: string,
    readonly language: Language,
    readonly version: number,
    readonly text: string,
    readonly catalogue: Catalogue,
    /** Why the configured catalogue is not in use, shown as a diagnostic. */
    readonly catalogueProblem: string | undefined,
    /** @internal The parser this document's history shares (`.wf` only). */
    readonly parser: IncrementalParser | undefined,
  ) {}

  get lines(): LineMap {
    this.lineMap ??= new LineMap(this.text);
    return this.lineMap;
  }

  /** Parse, compile and check, once per version. */
  get analysis(): Analysis {
    this.analysisResult ??= analyzeDocument(this);
    return this.analysisResult;
  }

  /** True once the analysis exists (requests never wait for one that is not needed). */
  get isAnalyzed(): boolean {
    return this.analysisResult !== undefined;
  }
}
