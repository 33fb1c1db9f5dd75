/**
 * The part catalogue: what each part requires and produces, its versions, terminal jobs,
 * cost, and whether it may run unattended. The checker is driven entirely by it.
 */
import * as generated from "./generated/validators.js";
import { type GeneratedValidator, describeSchemaError } from "./schema-errors.js";

const validateCatalogueDocument = generated.validateCatalogueDocument as unknown as GeneratedValidator;
import { isPlainObject, ownField } from "./model.js";

export interface CatalogueJob {
  id: string;
  version: string;
}

export interface CataloguePart {
  partId: string;
  versions: string[];
  title?: string;
  description?: string;
  requires: string[];
  produces: string[];
  unattendedSafe: boolean;
  /** Present exactly on parts whose id begins `terminal.`. */
  terminal?: { jobs: CatalogueJob[]; minSubjects?: number };
  cost: { baseMinorUnits: number; perSubjectMinorUnits?: number };
}

export interface CatalogueSubject {
  canonicalId: string;
  kind: "company";
  label: string;
  identifiers?: unknown[];
}

export interface Catalogue {
  catalogueVersion: 1;
  parts: CataloguePart[];
  nodeKinds?: {
    trigger?: { produces?: string[] };
    destination?: { requires?: string[] };
  };
  /** An offline table for pinning subjects from hints (labels, tickers, identifiers). */
  subjects?: CatalogueSubject[];
}

export const TERMINAL_PREFIX = "terminal.";

export function isTerminalPartId(partId: string): boolean {
  return partId.startsWith(TERMINAL_PREFIX);
}

/** A catalogue indexed for the checker: O(1) part lookups, defaults applied. */
export interface CatalogueIndex {
  readonly catalogue: Catalogue;
  readonly parts: ReadonlyMap<string, CataloguePart>;
  readonly partIds: readonly string[];
  readonly triggerProduces: readonly string[];
  readonly destinationRequires: readonly string[];
  readonly subjects: readonly CatalogueSubject[];
  /** The canonical ids of the subject table, exactly as written. */
  readonly subjectIds: ReadonlySet<string>;
  /** Each subject by the names it is known by (see subjectKey): canonical id, label, identifier values. */
  readonly subjectsByName: ReadonlyMap<string, SubjectName>;
}

/** A name of a subject in the catalogue's table, and which of its fields the name is. */
export interface SubjectName {
  readonly subject: CatalogueSubject;
  readonly field: "canonical id" | "label" | "identifier";
}

/** How names are compared with the subject table: trimmed, ignoring case. */
export function subjectKey(name: string): string {
  return name.trim().toLowerCase();
}

/** The table's names, each to the first subject that has it, canonical ids before labels before identifiers. */
function indexSubjectNames(subjects: readonly CatalogueSubject[]): Map<string, SubjectName> {
  const byName = new Map<string, SubjectName>();
  const add = (name: unknown, subject: CatalogueSubject, field: SubjectName["field"]) => {
    if (typeof name !== "string" || name.trim() === "") return;
    const key = subjectKey(name);
    if (!byName.has(key)) byName.set(key, { subject, field });
  };
  for (const subject of subjects) add(subject.canonicalId, subject, "canonical id");
  for (const subject of subjects) add(subject.label, subject, "label");
  for (const subject of subjects)
    for (const identifier of subject.identifiers ?? []) add(isPlainObject(identifier) ? ownField(identifier, "value") : identifier, subject, "identifier");
  return byName;
}

const indexCache = new WeakMap<Catalogue, CatalogueIndex>();

export function indexCatalogue(catalogue: Catalogue): CatalogueIndex {
  const cached = indexCache.get(catalogue);
  if (cached) return cached;
  const parts = new Map<string, CataloguePart>();
  for (const part of catalogue.parts) if (!parts.has(part.partId)) parts.set(part.partId, part);
  const index: CatalogueIndex = {
    catalogue,
    parts,
    partIds: [...parts.keys()],
    triggerProduces: catalogue.nodeKinds?.trigger?.produces ?? [],
    destinationRequires: catalogue.nodeKinds?.destination?.requires ?? [],
    subjects: catalogue.subjects ?? [],
    subjectIds: new Set((catalogue.subjects ?? []).map((subject) => subject.canonicalId)),
    subjectsByName: indexSubjectNames(catalogue.subjects ?? []),
  };
  indexCache.set(catalogue, index);
  return index;
}

export function minSubjectsOf(part: CataloguePart): number {
  return part.terminal?.minSubjects ?? 1;
}

/**
 * A part node's cost: its base cost plus its per-subject cost times `subjectCount`, or
 * undefined when that leaves the range of exact whole numbers (above Number.MAX_SAFE_INTEGER,
 * where doubles skip integers). Exact whenever it returns a number: loadCatalogue admits only
 * safe integer costs, and a product or sum of safe non-negative integers that is itself safe
 * is computed exactly.
 */
export function partCost(part: CataloguePart, subjectCount: number): number | undefined {
  const perSubject = (part.cost.perSubjectMinorUnits ?? 0) * subjectCount;
  const cost = part.cost.baseMinorUnits + perSubject;
  return Number.isSafeInteger(perSubject) && Number.isSafeInteger(cost) ? cost : undefined;
}

/** A mistake in a catalogue file. */
export interface CatalogueProblem {
  pointer: string;
  message: string;
}

export type CatalogueLoadResult =
  | { ok: true; catalogue: Catalogue }
  | { ok: false; problems: CatalogueProblem[] };

/**
 * Checks a parsed catalogue file: its shape against the catalogue schema, then the facts a
 * schema cannot state (unique part ids, terminal parts carry jobs and only they do).
 * Never throws.
 */
export function loadCatalogue(value: unknown): CatalogueLoadResult {
  if (!validateCatalogueDocument(value)) {
    const errors = validateCatalogueDocument.errors ?? [];
    return { ok: false, problems: errors.map((error) => ({ pointer: error.instancePath, message: describeSchemaError(error) })) };
  }
  const catalogue = value as Catalogue;
  const problems: CatalogueProblem[] = [];
  const seen = new Set<string>();
  catalogue.parts.forEach((part, index) => {
    const pointer = `/parts/${index}`;
    if (seen.has(part.partId)) problems.push({ pointer: `${pointer}/partId`, message: `part \`${part.partId}\` is listed twice; each part id must appear once` });
    seen.add(part.partId);
    if (isTerminalPartId(part.partId) && !part.terminal)
      problems.push({ pointer, message: `terminal part \`${part.partId}\` needs a \`terminal\` object listing its jobs` });
    if (!isTerminalPartId(part.partId) && part.terminal)
      problems.push({ pointer: `${pointer}/terminal`, message: `part \`${part.partId}\` has a \`terminal\` object but its id does not begin \`terminal.\`` });
    for (const field of ["baseMinorUnits", "perSubjectMinorUnits"] as const) {
      const cost = part.cost[field];
      if (cost !== undefined && !Number.isSafeInteger(cost))
        problems.push({
          pointer: `${pointer}/cost/${field}`,
          message: `\`${field}\` of part \`${part.partId}\` is ${cost}, above ${Number.MAX_SAFE_INTEGER} (2^53 - 1), the largest whole number an estimate can add exactly; give the cost in minor units below that`,
        });
    }
  });
  return problems.length ? { ok: false, problems } : { ok: true, catalogue };
}

export function isCatalogue(value: unknown): value is Catalogue {
  return isPlainObject(value) && loadCatalogue(value).ok;
}
