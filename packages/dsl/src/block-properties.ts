/**
 * Which properties each kind of block holds, and how a block's properties are read: the
 * first of each kind counts (a repeat is a `duplicate-field` fault), a misplaced one is a
 * `syntax` fault. The compiler and the source map both read blocks through here, so they
 * always agree on which property produced which field.
 */
import type { Block, BlockProperty, JobProperty, ScheduleProperty, ScopeProperty, SubjectsProperty, TimezoneProperty, VersionDestinationProperty, VersionTriggerProperty, WithClause } from "./ast.js";
import type { BlockKind } from "./parser.js";

export const BLOCK_PROPERTIES: Record<BlockKind, readonly BlockProperty["type"][]> = {
  trigger: ["schedule", "timezone", "with"],
  part: ["job", "subjects", "with"],
  destination: ["with"],
  version: ["trigger", "destination", "scope", "with"],
};

/** What each block kind describes, for messages. */
export const BLOCK_SUBJECT: Record<BlockKind, string> = {
  trigger: "a trigger block",
  part: "a part block (its `terminal` object)",
  destination: "a destination block",
  version: "a `version` block",
};

export interface BlockContents {
  schedule: ScheduleProperty | undefined;
  timezone: TimezoneProperty | undefined;
  job: JobProperty | undefined;
  subjects: SubjectsProperty | undefined;
  with: WithClause | undefined;
  trigger: VersionTriggerProperty | undefined;
  scope: ScopeProperty | undefined;
  /** Every `destination` of a version block, in order (each is one entry of `destinations`). */
  destinations: VersionDestinationProperty[];
}

export interface BlockProblem {
  kind: "misplaced" | "repeated";
  property: BlockProperty;
}

/**
 * Shared by every block without a `destination` (all but version blocks): a large file reads
 * tens of thousands of blocks per compile. Frozen, so a mistaken push fails loudly.
 */
const NO_DESTINATIONS = Object.freeze([]) as unknown as VersionDestinationProperty[];

/** Reads a block: the properties that count, and the ones that are misplaced or repeated. */
export function readBlock(block: Block | undefined, kind: BlockKind, problems?: BlockProblem[]): BlockContents {
  // Every field present from the start: one object shape for every block, which the compiler
  // reads for each of a large file's parts.
  const contents: BlockContents = {
    schedule: undefined,
    timezone: undefined,
    job: undefined,
    subjects: undefined,
    with: undefined,
    trigger: undefined,
    scope: undefined,
    destinations: NO_DESTINATIONS,
  };
  if (!block) return contents;
  const allowed = BLOCK_PROPERTIES[kind];
  for (const property of block.properties) {
    if (!allowed.includes(property.type)) {
      problems?.push({ kind: "misplaced", property });
      continue;
    }
    let repeated = false;
    switch (property.type) {
      case "destination":
        if (contents.destinations === NO_DESTINATIONS) contents.destinations = [];
        contents.destinations.push(property);
        break;
      case "with":
        if (contents.with) repeated = true;
        else contents.with = property.clause;
        break;
      default: {
        // schedule, timezone, job, subjects, trigger, scope: one of each, in its own field.
        const fields = contents as unknown as Record<string, BlockProperty | undefined>;
        if (fields[property.type]) repeated = true;
        else fields[property.type] = property;
      }
    }
    if (repeated) problems?.push({ kind: "repeated", property });
  }
  return contents;
}
