/**
 * The catalogue side of the API: the parts served, resolve-subjects against the catalogue's
 * `subjects` table, and validate-definition (the checker's verdict with the service's
 * catalogue). Nothing here touches the database.
 */
import { validateDefinition, type Catalogue, type CatalogueSubject } from "@wfkit/core";
import type { PartsResponse, ResolveSubjectsResponse, ValidateDefinitionResponse } from "@wfkit/client";
import { errors, type UsageOutage } from "./errors.js";
import { resolveHints } from "./subjects.js";

/** The admin surface's fault switches. */
export interface FaultSwitches {
  usage: UsageOutage | null;
  resolverDown: boolean;
}

export class CatalogueService {
  private subjectIndex: ReadonlyMap<string, CatalogueSubject> | undefined;
  private unattendedSafe: PartsResponse | undefined;
  private all: PartsResponse | undefined;

  constructor(
    readonly catalogue: Catalogue,
    private readonly faults: FaultSwitches,
  ) {}

  parts(unattendedSafeOnly: boolean): PartsResponse {
    // The catalogue is fixed for the service's life: each answer is made once.
    if (unattendedSafeOnly) return (this.unattendedSafe ??= { catalogueVersion: 1, parts: this.catalogue.parts.filter((part) => part.unattendedSafe) });
    return (this.all ??= { catalogueVersion: 1, parts: this.catalogue.parts.slice() });
  }

  resolveSubjects(hints: readonly string[]): ResolveSubjectsResponse {
    return resolveHints(hints, this.catalogue.subjects ?? [], !this.faults.resolverDown);
  }

  /** validate-definition: the checker's verdict, with the service's catalogue. */
  validate(definition: unknown): ValidateDefinitionResponse {
    const result = validateDefinition(definition, { catalogue: this.catalogue });
    if (!result.ok) throw errors.validation(result.faults);
    return { ok: true, definition, estimate: result.estimate, warnings: result.faults };
  }

  /** The companies this service holds (its catalogue's subject table), by canonical id. */
  get subjectsById(): ReadonlyMap<string, CatalogueSubject> {
    return (this.subjectIndex ??= new Map((this.catalogue.subjects ?? []).map((subject) => [subject.canonicalId, subject])));
  }

  /** Whether the catalogue has a subject table at all (a terminal part's failure says which). */
  get hasSubjectTable(): boolean {
    return this.catalogue.subjects !== undefined;
  }
}
