/**
 * The language service with the graph drawn: what the editor servers (Node and browser) run.
 * Kept apart from `createLanguageService` because the checker thread runs that one and must
 * not load Graphviz's WebAssembly, which only the preview needs.
 */
import { renderSvg } from "@wfkit/graph";
import type { GraphResult } from "../protocol.js";
import type { WfkitDocument } from "./document.js";
import { getGraphPicture } from "./features/graph-picture.js";
import { createLanguageService, type LanguageService, type LanguageServiceOptions } from "./language-service.js";

export interface GraphingLanguageService extends LanguageService {
  /** The document's graph as SVG, with each node's declaration (the preview's `wfkit/graph`). */
  graph(document: WfkitDocument): Promise<GraphResult>;
}

export function createGraphingLanguageService(options: LanguageServiceOptions = {}): GraphingLanguageService {
  return {
    ...createLanguageService(options),
    async graph(document) {
      const picture = getGraphPicture(document);
      // The page shows the text as it is; XML escaping is the renderer's.
      return { version: picture.version, svg: await renderSvg(picture.model, { displayText: (text) => text }), nodes: picture.nodes };
    },
  };
}
