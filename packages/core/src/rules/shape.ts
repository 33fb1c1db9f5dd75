import { defineRule } from "./rule.js";
import * as generated from "../generated/validators.js";
import type { GeneratedValidator, AjvError } from "../schema-errors.js";
import { describeValueType, TYPE_WORDS } from "../schema-errors.js";
import { isPlainObject, ownField, hasOwnField } from "../model.js";
import { parsePointer } from "../fault.js";
import type { RuleContext } from "../checker/context.js";

// The form is decided by bodyFormOf (through the model), not by the schema's own `if`.
const validateDefinitionForm = generated.validateDefinitionForm as unknown as GeneratedValidator;
const validateVersionSaveBodyForm = generated.validateVersionSaveBodyForm as unknown as GeneratedValidator;

export default defineRule({
  meta: {
    id: "shape",
    severity: "error",
    category: "document",
    title: "Every value has the type the service expects, and every required field is present",
    rationale:
      "The service reads the graph by field name and type; a missing `partVersion` or an `edges` that is not an array makes the definition unreadable, so it is refused.",
    fix: "Add the missing field or correct the value's type, as the message says.",
    assumptions: [
      "Node ids must be non-empty strings: an empty id cannot be named by an edge.",
      "Checked against the JSON Schema shipped as `@wfkit/core/schema/definition.schema.json`, compiled ahead of time: its Definition part or its version-save-body part, whichever form the body is read as (see `body-mixed`); values whose allowed set has its own rule (`schemaVersion`, kinds, `belowFloor`, subject refs) are left to that rule.",
    ],
  },
  check(ctx) {
    const input = ctx.model.input;
    if (!isPlainObject(input)) {
      ctx.report({
        nodeId: null,
        pointer: "",
        message: `The input is ${describeValueType(input)}, not a definition. A definition is an object {"schemaVersion": 1, "nodes": [...], "edges": [...]} (or a version-save body {"scope": {"graph": ...}}).`,
      });
      return;
    }
    // A clean input passes the schema and has no empty id (checker/read.ts): skip the
    // all-errors validator, the costliest pass of a check.
    if (ctx.model.clean) return;
    const validateDocument = ctx.model.isVersionBody ? validateVersionSaveBodyForm : validateDefinitionForm;
    if (!validateDocument(input)) {
      for (const error of validateDocument.errors ?? []) {
        if (isOwnedByAnotherRule(ctx, error)) continue;
        reportSchemaError(ctx, error);
      }
    }
    for (const node of ctx.model.nodes) {
      if (node.raw && ownField(node.raw, "id") === "")
        ctx.report({
          nodeId: null,
          pointer: `${node.pointer}/id`,
          message: "This node's `id` is empty. Edges name nodes by id, so every node needs a non-empty, unique id.",
        });
    }
  },
});

function isOwnedByAnotherRule(ctx: RuleContext, error: AjvError): boolean {
  if (error.keyword !== "type" && error.keyword !== "required") return true;
  if (/\/subjectRefs\/\d+(\/|$)/.test(error.instancePath)) return true; // subject-not-canonical
  if (error.keyword === "required" && error.params.missingProperty === "schemaVersion") return true; // schema-version
  if (error.keyword === "required") {
    // A node with neither `kind` nor `partId` is a node-kind fault, not two missing fields.
    const node = nodeAt(ctx, error.instancePath);
    if (node?.raw && node.pointer === error.instancePath && !hasOwnField(node.raw, "kind") && !hasOwnField(node.raw, "partId")) return true;
  }
  return false;
}

function nodeAt(ctx: RuleContext, pointer: string) {
  const base = `${ctx.model.graphPointer}/nodes/`;
  if (!pointer.startsWith(base)) return undefined;
  const index = Number.parseInt(pointer.slice(base.length), 10);
  return Number.isInteger(index) ? ctx.model.nodes[index] : undefined;
}

function reportSchemaError(ctx: RuleContext, error: AjvError): void {
  const node = nodeAt(ctx, error.instancePath);
  const nodeId = node?.id ?? null;
  const owner = describeOwner(ctx, error.instancePath);
  if (error.keyword === "required") {
    const field = String(error.params.missingProperty);
    ctx.report({
      nodeId,
      pointer: error.instancePath,
      message: `${owner} is missing the required field \`${field}\`. The service cannot read it without one; ${field === "partVersion" ? versionHint(node?.raw) : `add \`${field}\`${requiredHint(field)}.`}`,
    });
    return;
  }
  const expected = TYPE_WORDS[String(error.params.type)] ?? String(error.params.type);
  const actual = describeValueType(valueAt(ctx.model.input, error.instancePath));
  const tokens = parsePointer(error.instancePath);
  const field = tokens[tokens.length - 1];
  ctx.report({
    nodeId,
    pointer: error.instancePath,
    message: `${owner} must be ${expected}, but it is ${actual}.${typeHint(field)}`,
  });
}

function describeOwner(ctx: RuleContext, pointer: string): string {
  const node = nodeAt(ctx, pointer);
  const tokens = parsePointer(pointer.slice(node ? node.pointer.length : 0));
  const path = tokens.length ? `\`${tokens.join(".")}\`` : "";
  if (node) {
    const name = node.id ? `node \`${node.id}\`` : `node #${node.index + 1}`;
    return path ? `${path} of ${name}` : `${name}`;
  }
  const edgeMatch = /^(.*)\/edges\/(\d+)(\/.*)?$/.exec(pointer);
  if (edgeMatch && edgeMatch[1] === ctx.model.graphPointer) {
    const edge = `edge ${Number(edgeMatch[2]) + 1}`;
    return edgeMatch[3] ? `\`${parsePointer(edgeMatch[3]).join(".")}\` of ${edge}` : `${edge[0]!.toUpperCase()}${edge.slice(1)} (an object {"from", "to"})`;
  }
  if (pointer === ctx.model.graphPointer) return "The definition";
  return `\`${parsePointer(pointer).join(".")}\``;
}

/**
 * How to give a missing part version, in both languages a definition is written in: the JSON
 * field, and `.wf`'s `part@version` (a `.wf` part written without `@1` compiles to a node
 * without `partVersion`), with the node's own part id when it has one.
 */
function versionHint(raw: unknown): string {
  const partId = isPlainObject(raw) ? ownField(raw, "partId") : undefined;
  const part = typeof partId === "string" && /^[\w.-]{1,64}$/.test(partId) ? partId : "PART";
  return `give the part's version: \`"partVersion": "1"\` in JSON, \`${part}@1\` in .wf.`;
}

function requiredHint(field: string): string {
  switch (field) {
    case "trigger": return " ({\"kind\": \"on_demand\"})";
    case "destination": return " ({\"kind\": \"standalone\"})";
    case "belowFloor": return " (\"hold\")";
    case "nodes": case "edges": return " (an array, possibly empty)";
    default: return "";
  }
}

function typeHint(field: string | undefined): string {
  if (field === "partVersion" || field === "version") return " Versions are strings: write \"1\", not 1.";
  return "";
}

function valueAt(input: unknown, pointer: string): unknown {
  let value = input;
  for (const token of parsePointer(pointer)) {
    if (Array.isArray(value)) value = value[Number(token)];
    else if (isPlainObject(value)) value = ownField(value, token);
    else return undefined;
  }
  return value;
}
