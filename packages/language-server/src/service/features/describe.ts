/** Markdown descriptions of parts, nodes and subjects, shared by hover and completion. */
import { partCost, type CataloguePart, type CatalogueSubject } from "@wfkit/core";

export function list(items: readonly string[]): string {
  return items.length ? items.map((item) => `\`${item}\``).join(", ") : "nothing";
}

export function costText(part: CataloguePart): string {
  const per = part.cost.perSubjectMinorUnits;
  return per ? `${part.cost.baseMinorUnits} + ${per} per subject (minor units)` : `${part.cost.baseMinorUnits} (minor units)`;
}

/** One line for a completion item's detail. */
export function partDetail(part: CataloguePart): string {
  return `@${part.versions.join(", @")} · requires ${part.requires.join(", ") || "nothing"} → produces ${part.produces.join(", ") || "nothing"} · cost ${costText(part)}`;
}

/** A part's cost with this many subjects, or a note when it leaves the range of exact numbers (estimate-too-large says so on the node). */
export function costFor(part: CataloguePart, subjectCount: number): string {
  return String(partCost(part, subjectCount) ?? "too large to count exactly");
}

export function describePart(part: CataloguePart, subjectCount?: number): string {
  const lines = [`**${part.title ?? part.partId}** \`${part.partId}\``];
  if (part.description) lines.push("", part.description);
  lines.push(
    "",
    `- versions: ${list(part.versions)}`,
    `- requires: ${list(part.requires)}`,
    `- produces: ${list(part.produces)}`,
    `- cost: ${costText(part)}${subjectCount !== undefined ? `; here ${costFor(part, subjectCount)} with ${subjectCount} subject${subjectCount === 1 ? "" : "s"}` : ""}`,
    `- unattendedSafe: ${part.unattendedSafe ? "yes (may run on a schedule)" : "no (needs a person; not on a scheduled trigger)"}`,
  );
  if (part.terminal) lines.push(`- jobs: ${list(part.terminal.jobs.map((job) => `${job.id}@${job.version}`))}; at least ${part.terminal.minSubjects ?? 1} subject(s)`);
  return lines.join("\n");
}

export function describeCatalogueSubject(subject: CatalogueSubject): string {
  return `**${subject.label}** \`${subject.canonicalId}\` (${subject.kind})${subject.identifiers?.length ? `\n\n- identifiers: ${subject.identifiers.map((i) => `\`${JSON.stringify(i)}\``).join(", ")}` : ""}`;
}
