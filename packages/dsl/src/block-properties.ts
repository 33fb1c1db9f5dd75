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
  schedule?: ScheduleProperty;
  timezone?: TimezoneProperty;
  job?: JobProperty;
  subjects?: SubjectsProperty;
  with?: WithClause;
  trigger?: VersionTriggerProperty;
  scope?: ScopeProperty;
  /** Every `destination` of a version block, in order (each is one entry of `destinations`). */
  destinations: VersionDestinationProperty[];
}

export interface BlockProblem {
  kind: "misplaced" | "repeated";
  property: BlockProperty;
}

/** Reads a block: the properties that count, and the ones that are misplaced or repeated. */
export function readBlock(block: Block | undefined, kind: BlockKind, problems?: BlockProblem[]): BlockContents {
  const contents: BlockContents = { destinations: [] };
  if (!block) return contents;
  const allowed = BLOCK_PROPERTIES[kind];
  for (const property of block.properties) {
    if (!allowed.includes(property.type)) {
      problems?.push({ kind: "misplaced", property });
      continue;
    }
    switch (property.type) {
      case "destination":
        contents.destinations.push(property);
        break;
      case "with":
        if (contents.with) problems?.push({ kind: "repeated", property });
        else contents.with = property.clause;
        break;
      default:
        if (contents[property.type]) problems?.push({ kind: "repeated", property });
        else (contents as unknown as Record<string, BlockProperty>)[property.type] = property;
    }
  }
  return contents;
}
