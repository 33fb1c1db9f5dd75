/**
 * The live graph of a document (the editor's preview): @wfkit/graph's model of the analysis
 * the server already has (the compiled definition, best effort while the text has syntax
 * errors; the faults after the project's policy; the estimate; the document's catalogue),
 * with each node's declaration in the text, so a click on a node can move the cursor there
 * and the node under the cursor can be highlighted. Never a second parse.
 */
import { graphModelOf, type GraphModel, type GraphNodeKind } from "@wfkit/graph";
import type { Range } from "@wfkit/dsl";
import type { WfkitDocument } from "../document.js";

export interface GraphPictureNode {
  /** The node's key in the model and its SVG id without the `wf-` prefix (`n0`, ...). */
  key: string;
  id: string;
  kind: GraphNodeKind;
  /** The whole declaration (the node under the cursor is the one whose declaration holds it). */
  range: Range | null;
  /** Where the cursor goes on a click: the node's name. */
  selectionRange: Range | null;
  errors: number;
  warnings: number;
}

export interface GraphPicture {
  version: number;
  model: GraphModel;
  nodes: GraphPictureNode[];
}

export function getGraphPicture(document: WfkitDocument): GraphPicture {
  const { analysis } = document;
  const model = graphModelOf({ definition: analysis.compiled, faults: analysis.faults, catalogue: document.catalogue, ...(analysis.estimate ? { estimate: analysis.estimate } : {}) });
  const { sourceMap } = analysis;
  const nodes = model.nodes.map((node): GraphPictureNode => {
    const pointer = node.index === undefined ? undefined : `${model.nodesPointer}/${node.index}`;
    const written = pointer !== undefined && sourceMap.has(pointer);
    return {
      key: node.key,
      id: node.id,
      kind: node.kind,
      range: written ? sourceMap.rangeOf(pointer) : null,
      selectionRange: written ? sourceMap.rangeOf(`${pointer}/id`) : null,
      errors: node.faults.filter((fault) => fault.severity === "error").length,
      warnings: node.faults.filter((fault) => fault.severity === "warning").length,
    };
  });
  return { version: document.version, model, nodes };
}
