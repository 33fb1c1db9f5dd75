/**
 * Reading the input's objects in one pass each, and deciding whether an object is *clean*:
 * it has only the fields wfkit knows for it, each present when required and of the type and
 * value the schema allows. A clean document gives `shape` and `unknown-field` nothing to say,
 * so they skip their costly passes (the all-errors schema validator, the field walk) for it;
 * anything not clean gets those passes in full. "Clean" may err only towards false: a test
 * asserts that a clean document passes the schema and has no unknown field (test/clean.property.test.ts),
 * and another that each known field, with a value the schema accepts, is read as clean
 * (test/schema.test.ts), so the fields listed here stay those of the schema.
 *
 * Fields are read with `for…in`, one enumeration per object instead of a `hasOwnProperty`
 * call per field. That equals reading own enumerable properties (what JSON.stringify sends,
 * and all JSON.parse ever makes) only when nothing enumerable is inherited, so
 * `canEnumerateOwnFields` vets each object's prototype first; other objects are read field by
 * field with `ownField` and never count as clean.
 */
import { type NodeKind, NODE_KINDS, hasOwnField, isPlainObject, ownField } from "../model.js";

/** Whether `Object.prototype` carries an enumerable property (someone else polluted it). */
function prototypeHasEnumerables(): boolean {
  for (const _ in Object.prototype) return true;
  return false;
}

/** Decided once per check: the answer can change only if another program pollutes the prototype. */
export class FieldReader {
  private readonly objectPrototypeClean = !prototypeHasEnumerables();

  /** True when `for…in` over `object` lists exactly its own enumerable fields. */
  canEnumerateOwnFields(object: object): boolean {
    const prototype = Object.getPrototypeOf(object);
    return prototype === null || (prototype === Object.prototype && this.objectPrototypeClean);
  }

  isCleanTriggerSpec(value: unknown): boolean {
    if (!isPlainObject(value) || !this.canEnumerateOwnFields(value)) return false;
    let kind = false;
    for (const field in value) {
      const v = value[field];
      switch (field) {
        case "kind":
          if (v !== "on_demand" && v !== "scheduled") return false;
          kind = true;
          break;
        case "schedule":
        case "timezone":
          if (typeof v !== "string") return false;
          break;
        default:
          return false;
      }
    }
    return kind;
  }

  isCleanDestinationSpec(value: unknown): boolean {
    if (!isPlainObject(value) || !this.canEnumerateOwnFields(value)) return false;
    let kind = false;
    for (const field in value) {
      if (field !== "kind" || value[field] !== "standalone") return false;
      kind = true;
    }
    return kind;
  }

  /** A pinned subject: `canonicalId` (non-empty), `kind: "company"`, optional `label` and `identifiers`. */
  isCleanSubject(value: unknown): boolean {
    if (!isPlainObject(value) || !this.canEnumerateOwnFields(value)) return false;
    let canonicalId = false;
    let kind = false;
    for (const field in value) {
      const v = value[field];
      switch (field) {
        case "canonicalId":
          if (typeof v !== "string" || v === "") return false;
          canonicalId = true;
          break;
        case "kind":
          if (v !== "company") return false;
          kind = true;
          break;
        case "label":
          if (typeof v !== "string") return false;
          break;
        case "identifiers":
          if (!Array.isArray(v)) return false;
          break;
        default:
          return false;
      }
    }
    return canonicalId && kind;
  }

  /**
   * Reads a part's `terminal` object into `target` (its job's id and version, its subject
   * list) and returns whether it is clean. Rules use the fields read here instead of reading
   * the object again.
   */
  readTerminal(value: unknown, target: NodeFields): boolean {
    if (!isPlainObject(value)) return false;
    if (!this.canEnumerateOwnFields(value)) {
      readTerminalFieldByField(value, target);
      return false;
    }
    let job = false;
    let refs = false;
    let clean = true;
    for (const field in value) {
      const v = value[field];
      if (field === "job") {
        job = true;
        if (!this.readJob(v, target)) clean = false;
      } else if (field === "subjectRefs") {
        refs = true;
        if (!Array.isArray(v)) clean = false;
        else {
          target.subjectRefs = v;
          if (clean) for (let i = 0; i < v.length; i++) if (!this.isCleanSubject(v[i])) { clean = false; break; }
        }
      } else clean = false;
    }
    return clean && job && refs;
  }

  /** Reads a terminal's `job` (id and version, when strings) into `target`; whether it is clean. */
  private readJob(value: unknown, target: NodeFields): boolean {
    if (!isPlainObject(value)) return false;
    if (!this.canEnumerateOwnFields(value)) {
      readJobFieldByField(value, target);
      return false;
    }
    let clean = true;
    for (const field in value) {
      const v = value[field];
      if (typeof v !== "string") clean = false;
      else if (field === "id") target.jobId = v;
      else if (field === "version") target.jobVersion = v;
      if (field !== "id" && field !== "version") clean = false;
    }
    return clean && target.jobId !== undefined && target.jobVersion !== undefined;
  }

  /** Reads a node object's fields into `target`; see `NodeFields`. */
  readNode(raw: Record<string, unknown>, target: NodeFields): void {
    if (!this.canEnumerateOwnFields(raw)) {
      readNodeFieldByField(raw, target);
      return;
    }
    let id: unknown;
    let kind: unknown;
    let partId: unknown;
    let hasPartId = false;
    let partVersion: unknown;
    let hasTerminal = false;
    let terminal: unknown;
    let trigger: unknown;
    let hasTrigger = false;
    let destination: unknown;
    let hasDestination = false;
    let belowFloor: unknown;
    let hasBelowFloor = false;
    let others = false;
    for (const field in raw) {
      const value = raw[field];
      switch (field) {
        case "id": id = value; break;
        case "kind": kind = value; break;
        case "partId": partId = value; hasPartId = true; break;
        case "partVersion": partVersion = value; break;
        case "terminal": terminal = value; hasTerminal = true; break;
        case "trigger": trigger = value; hasTrigger = true; break;
        case "destination": destination = value; hasDestination = true; break;
        case "belowFloor": belowFloor = value; hasBelowFloor = true; break;
        default: others = true;
      }
    }
    const resolved = kindOf(kind, hasPartId);
    target.id = graphIdOf(id);
    target.kind = resolved;
    target.partId = resolved === "part" && typeof partId === "string" ? partId : undefined;
    target.partVersion = partVersion;
    target.hasTerminal = hasTerminal;
    const terminalClean = hasTerminal && resolved === "part" && this.readTerminal(terminal, target);
    let clean = !others && typeof id === "string" && target.id !== undefined && resolved !== undefined;
    if (clean) {
      // Only the fields of the node's own kind (KNOWN_NODE_FIELDS), each valid.
      switch (resolved) {
        case "trigger":
          clean = !hasPartId && partVersion === undefined && !hasTerminal && !hasDestination && !hasBelowFloor && hasTrigger && this.isCleanTriggerSpec(trigger);
          break;
        case "part":
          clean = !hasTrigger && !hasDestination && !hasBelowFloor && typeof partId === "string" && typeof partVersion === "string" && (!hasTerminal || terminalClean);
          break;
        case "gate":
          clean = !hasPartId && partVersion === undefined && !hasTerminal && !hasTrigger && !hasDestination && belowFloor === "hold";
          break;
        case "destination":
          clean = !hasPartId && partVersion === undefined && !hasTerminal && !hasTrigger && !hasBelowFloor && hasDestination && this.isCleanDestinationSpec(destination);
          break;
      }
    }
    target.clean = clean;
  }

  /** Reads an edge object's `from` and `to` into `target` (see edgeEndOf). */
  readEdge(raw: Record<string, unknown>, target: EdgeFields): void {
    if (!this.canEnumerateOwnFields(raw)) {
      target.from = edgeEndOf(ownField(raw, "from"));
      target.to = edgeEndOf(ownField(raw, "to"));
      target.clean = false;
      return;
    }
    let from: unknown;
    let to: unknown;
    let others = false;
    for (const field in raw) {
      if (field === "from") from = raw[field];
      else if (field === "to") to = raw[field];
      else others = true;
    }
    target.from = edgeEndOf(from);
    target.to = edgeEndOf(to);
    target.clean = !others && typeof from === "string" && typeof to === "string";
  }
}

/** What the checker reads from a node object once, so that rules need not read it again. */
export interface NodeFields {
  /** The id the graph knows the node by (see graphIdOf); undefined when it has none. */
  id: string | undefined;
  /** The resolved kind; undefined when the node is none of the four. */
  kind: NodeKind | undefined;
  /** The `partId` of a part node, when it is a string. */
  partId: string | undefined;
  /** The `partVersion` value, whatever it is. */
  partVersion: unknown;
  hasTerminal: boolean;
  /** Of a part's `terminal` object: `job.id` and `job.version` when strings, `subjectRefs` when an array. */
  jobId: string | undefined;
  jobVersion: string | undefined;
  subjectRefs: unknown[] | undefined;
  /** See the file comment. */
  clean: boolean;
}

export interface EdgeFields {
  /** The id each end names (see edgeEndOf); undefined when it names none. */
  from: string | undefined;
  to: string | undefined;
  clean: boolean;
}

/**
 * The id a node is wired by: its `id` when a non-empty string, and the text of a number or
 * `true`/`false` (`5` for `5`): `shape` reports that such an id must be a string, and the
 * graph assumes the fix, so edges naming `"5"` still join the node (instead of dangling and
 * cutting off the nodes after it: one mistake, one fault). A node with no id, an empty one or
 * an object has none and takes no part in the wiring.
 */
export function graphIdOf(id: unknown): string | undefined {
  if (typeof id === "string") return id === "" ? undefined : id;
  if ((typeof id === "number" && Number.isFinite(id)) || typeof id === "boolean") return String(id);
  return undefined;
}

/** The id an edge end names: a string as it is, and, as graphIdOf, the text of a number or `true`/`false`. */
function edgeEndOf(end: unknown): string | undefined {
  return typeof end === "string" ? end : graphIdOf(end);
}

/** The node's kind: its `kind` when one of the four, "part" when it has none but a `partId`. */
function kindOf(kind: unknown, hasPartId: boolean): NodeKind | undefined {
  if (kind === undefined) return hasPartId ? "part" : undefined;
  return typeof kind === "string" && (NODE_KINDS as readonly string[]).includes(kind) ? (kind as NodeKind) : undefined;
}

/** The careful path, for objects whose prototype chain may list fields of its own. */
function readNodeFieldByField(raw: Record<string, unknown>, target: NodeFields): void {
  const id = ownField(raw, "id");
  const kind = kindOf(ownField(raw, "kind"), hasOwnField(raw, "partId"));
  const partId = ownField(raw, "partId");
  target.id = graphIdOf(id);
  target.kind = kind;
  target.partId = kind === "part" && typeof partId === "string" ? partId : undefined;
  target.partVersion = ownField(raw, "partVersion");
  target.hasTerminal = hasOwnField(raw, "terminal");
  if (kind === "part") readTerminalFieldByField(ownField(raw, "terminal"), target);
  target.clean = false;
}

function readTerminalFieldByField(terminal: unknown, target: NodeFields): void {
  if (!isPlainObject(terminal)) return;
  const refs = ownField(terminal, "subjectRefs");
  if (Array.isArray(refs)) target.subjectRefs = refs;
  readJobFieldByField(ownField(terminal, "job"), target);
}

function readJobFieldByField(job: unknown, target: NodeFields): void {
  if (!isPlainObject(job)) return;
  const id = ownField(job, "id");
  const version = ownField(job, "version");
  if (typeof id === "string") target.jobId = id;
  if (typeof version === "string") target.jobVersion = version;
}
