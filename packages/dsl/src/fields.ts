/**
 * The field tables: for each object a typed `.wf` statement writes (a node, a trigger or
 * destination object, a part's `terminal` and its `job`, a subject), which syntax writes which
 * JSON field and how its value is written. The compiler, the `.wf` source map, the decompiler
 * and the printer all read these tables, so "this syntax writes that field" is stated once.
 *
 * A field is written when its syntax is there, and only then; any other field of the object
 * comes from its `with` clause. Fields are listed in the order the compiler writes them (the
 * JSON's canonical order); `written` is the order the text writes them in.
 */
import type { Block, BlockProperty, JsonLiteral, NodeDeclaration, SubjectsProperty, Syntax, WithClause } from "./ast.js";
import type { BlockContents, BlockKind } from "./syntax-table.js";

/**
 * How a field's value is written, and so read, placed, printed and rebuilt:
 * - `name`: a name, bare when it can be (`compare`, `"fetch data"`); its text is the value.
 * - `string`: a name always printed quoted (a label, a schedule).
 * - `version`: `@1` or `@"2024 Q1"` right after the field named by `after`; placed at its value.
 * - `type`: the element's own keyword (`gate` for `kind: "gate"`), always written.
 * - `literal`: a JSON literal after the word `keyword` (`identifiers [...]`).
 * - `subjects`: `subjects [a, b]`, each name standing for its subject's whole object.
 * - a table: an object of its own.
 */
export type FieldForm = "name" | "string" | "version" | "type" | "literal" | "subjects" | FieldTable;

export interface Field {
  /** The JSON field. */
  json: string;
  form: FieldForm;
  /** Where its syntax is: this key of the element... */
  key: string | undefined;
  /** ...or the block property of this type (`schedule "..."`, `job ...`) in the element's block. */
  property: BlockProperty["type"] | undefined;
  /** The word before a literal (`identifiers`). */
  keyword: string | undefined;
  /** Written only right after this field (a version follows its part id or job id). */
  after: string | undefined;
  /** A mark printed before the field (`=` before a part id). */
  mark: string | undefined;
  /** The typed statement says the object only with this field; without it the decompiler writes JSON. */
  required: boolean;
  /** The field's syntax is the `value` of its holder: a block property's (`schedule "..."`), or a literal's after its word. */
  heldValue: boolean;
}

export interface FieldTable {
  /** Its writer's name in the generated code (`writePartNode`). */
  name: string;
  /** The syntax element it reads (an ast.ts type: the generated writer's parameter). */
  syntax: string;
  fields: readonly Field[];
  /** The fields written as block properties live in a block of this kind: the element itself, or its `key`. */
  block: { kind: BlockKind; key: string | undefined } | undefined;
  /** Where the object is placed in the text: the span of this field's syntax, the block's `{`, or (when undefined) the element. */
  placedAt: string | undefined;
  /** The order the text writes the fields in. */
  written: readonly Field[];
}

/** A row of a table, with its defaults filled in. */
function field(row: Pick<Field, "json" | "form"> & Partial<Omit<Field, "heldValue">>): Field {
  const { json, form, key, property, keyword, after, mark, required = false } = row;
  const heldValue = form === "literal" || (property !== undefined && (form === "name" || form === "string"));
  return { json, form, key, property, keyword, after, mark, required, heldValue };
}

function table(name: string, syntax: string, fields: Field[], options: { block?: { kind: BlockKind; key?: string }; placedAt?: string; written?: Field[] } = {}): FieldTable {
  const block = options.block && { kind: options.block.kind, key: options.block.key };
  return { name, syntax, fields, block, placedAt: options.placedAt, written: options.written ?? fields };
}

const ID = field({ json: "id", key: "name", form: "name", required: true });
const KIND = field({ json: "kind", form: "type" });

export const TRIGGER_SPEC_TABLE = table(
  "TriggerSpec",
  "KindSpec",
  [
    field({ json: "kind", key: "kind", form: "name", required: true }),
    field({ json: "schedule", property: "schedule", form: "string" }),
    field({ json: "timezone", property: "timezone", form: "string" }),
  ],
  { block: { kind: "trigger", key: "block" }, placedAt: "kind" },
);

export const DESTINATION_SPEC_TABLE = table("DestinationSpec", "KindSpec", [field({ json: "kind", key: "kind", form: "name", required: true })], {
  block: { kind: "destination", key: "block" },
  placedAt: "kind",
});

export const JOB_TABLE = table("Job", "JobProperty", [
  field({ json: "id", key: "id", form: "name", required: true }),
  field({ json: "version", key: "version", form: "version", after: "id" }),
]);

/** A part's block is its `terminal` object. */
export const TERMINAL_TABLE = table(
  "Terminal",
  "Block",
  [field({ json: "job", property: "job", form: JOB_TABLE }), field({ json: "subjectRefs", property: "subjects", form: "subjects" })],
  { block: { kind: "part" }, placedAt: "open" },
);

const SUBJECT_KIND = field({ json: "kind", key: "kind", form: "name", required: true });
const CANONICAL_ID = field({ json: "canonicalId", key: "canonicalId", form: "string", required: true });
const LABEL = field({ json: "label", key: "label", form: "string" });
const IDENTIFIERS = field({ json: "identifiers", key: "identifiers", form: "literal", keyword: "identifiers" });

/** `subject tesco = company "cmp_tesco" "Tesco PLC" identifiers [...]`: a pinned subject. */
export const SUBJECT_TABLE = table("Subject", "TypedSubject", [CANONICAL_ID, SUBJECT_KIND, LABEL, IDENTIFIERS], {
  written: [SUBJECT_KIND, CANONICAL_ID, LABEL, IDENTIFIERS],
});

/** The node each typed node statement writes. */
export const NODE_TABLES = {
  trigger: table("TriggerNode", "TriggerStatement", [ID, KIND, field({ json: "trigger", key: "spec", form: TRIGGER_SPEC_TABLE, required: true })], { placedAt: "id" }),
  destination: table("DestinationNode", "DestinationStatement", [ID, KIND, field({ json: "destination", key: "spec", form: DESTINATION_SPEC_TABLE, required: true })], {
    placedAt: "id",
  }),
  gate: table("GateNode", "GateStatement", [ID, KIND, field({ json: "belowFloor", key: "belowFloor", form: "name" })], { placedAt: "id" }),
  part: table(
    "PartNode",
    "PartStatement",
    [
      ID,
      field({ json: "partId", key: "partId", form: "name", mark: "=" }),
      field({ json: "partVersion", key: "version", form: "version", after: "partId" }),
      field({ json: "terminal", key: "block", form: TERMINAL_TABLE }),
    ],
    { placedAt: "id" },
  ),
} satisfies Record<Exclude<NodeDeclaration["type"], "node">, FieldTable>;

/** Every table, for the generator of the compiler's writers (scripts/generate-from-tables.mjs). */
export const FIELD_TABLES: readonly FieldTable[] = [...Object.values(NODE_TABLES), TRIGGER_SPEC_TABLE, DESTINATION_SPEC_TABLE, TERMINAL_TABLE, JOB_TABLE, SUBJECT_TABLE];

/**
 * What the generated writers ask of the compiler: read a block (reporting its misplaced and
 * repeated properties), track the pointer of the object being written (for faults), merge a
 * `with` clause, and compile a literal or a subject list.
 */
export interface FieldWriter {
  readBlock(block: Block, kind: BlockKind): BlockContents;
  push(token: string): void;
  pop(): void;
  mergeWith(object: Record<string, unknown>, clause: WithClause | undefined): void;
  valueOf(literal: JsonLiteral): unknown;
  subjectRefs(list: SubjectsProperty): unknown[];
}

/** An element's syntax, read by key (the tables name the keys). */
type Element = Syntax & Record<string, unknown>;

/** The block of an element whose table has one. */
export function blockOf(table: FieldTable, element: object): Block | undefined {
  const block = table.block;
  if (!block) return undefined;
  return (block.key === undefined ? element : (element as Element)[block.key]) as Block | undefined;
}

/** The syntax that holds a field: the element's key, or the block property (undefined when not written). */
export function holderOf(field: Field, element: object, contents: BlockContents | undefined): Element | undefined {
  if (field.form === "type") return element as Element;
  if (field.key !== undefined) return (element as Element)[field.key] as Element | undefined;
  return contents?.[field.property as keyof BlockContents] as Element | undefined;
}

/** The `with` clause of an element: its own, or its block's `with` property. */
export function withOf(table: FieldTable, element: object, contents: BlockContents | undefined): WithClause | undefined {
  return table.block ? contents?.with : ((element as Element)["with"] as WithClause | undefined);
}

/** The field of a table that writes JSON field `json`. */
export function fieldNamed(table: FieldTable, json: string): Field | undefined {
  const fields = table.fields;
  for (let i = 0; i < fields.length; i++) if (fields[i]!.json === json) return fields[i];
  return undefined;
}

/** The field a block property writes (for the printer, which prints properties as written). */
export function propertyField(type: BlockProperty["type"]): Field | undefined {
  for (const table of [TRIGGER_SPEC_TABLE, TERMINAL_TABLE]) for (const field of table.fields) if (field.property === type) return field;
  return undefined;
}
