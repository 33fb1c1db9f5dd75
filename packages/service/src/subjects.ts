/**
 * resolve-subjects against the catalogue's `subjects` table: a hint matches a subject by its
 * canonical id, a ticker (with or without the exchange suffix: `TSCO` finds `TSCO.L`), its
 * whole label, or words of its label (`sainsbury`). One match resolves; several are
 * `ambiguous` with candidates; a subject with no ticker is held but `unlisted`; no match is
 * `not_found` (a reason the reference does not list: see docs/service.md).
 */
import type { CatalogueSubject } from "@wfkit/core";

export type { ResolvedSubject, UnresolvedHint } from "@wfkit/client";
import type { ResolvedSubject, UnresolvedHint } from "@wfkit/client";

const LEGAL_SUFFIXES = new Set(["plc", "inc", "corp", "corporation", "group", "ltd", "limited", "co", "company", "sa", "ag", "nv"]);

function words(text: string): string[] {
  return text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^\p{L}\p{N}\s]/gu, " ")
    .split(/\s+/)
    .filter(Boolean);
}

function significantWords(text: string): string[] {
  return words(text).filter((word) => !LEGAL_SUFFIXES.has(word));
}

export function tickerOf(subject: CatalogueSubject): string | undefined {
  for (const identifier of subject.identifiers ?? []) {
    const entry = identifier as { type?: unknown; value?: unknown };
    if (entry && entry.type === "ticker" && typeof entry.value === "string") return entry.value;
  }
  return undefined;
}

export function resolveHints(hints: readonly string[], subjects: readonly CatalogueSubject[], resolverUp: boolean): { subjects: ResolvedSubject[]; unresolved: UnresolvedHint[] } {
  const resolved: ResolvedSubject[] = [];
  const unresolved: UnresolvedHint[] = [];
  for (const hint of hints) {
    if (!resolverUp) {
      unresolved.push({ hint, reason: "lookup_failed" });
      continue;
    }
    const matches = match(hint, subjects);
    if (matches.length === 1) {
      const subject = matches[0]!;
      if (tickerOf(subject) === undefined) unresolved.push({ hint, reason: "unlisted" });
      else resolved.push({ canonicalId: subject.canonicalId, kind: "company", label: subject.label, identifiers: subject.identifiers ?? [] });
    } else if (matches.length > 1) {
      unresolved.push({ hint, reason: "ambiguous", candidates: matches.map((s) => ({ canonicalId: s.canonicalId, label: s.label, ticker: tickerOf(s) ?? "" })) });
    } else {
      unresolved.push({ hint, reason: "not_found" });
    }
  }
  return { subjects: resolved, unresolved };
}

function match(hint: string, subjects: readonly CatalogueSubject[]): CatalogueSubject[] {
  const text = hint.trim().toLowerCase();
  const exact = subjects.filter((subject) => {
    const ticker = tickerOf(subject)?.toLowerCase();
    return subject.canonicalId.toLowerCase() === text || subject.label.toLowerCase() === text || ticker === text || ticker?.split(".")[0] === text;
  });
  if (exact.length) return exact;
  const wanted = significantWords(hint);
  const query = wanted.length ? wanted : words(hint);
  if (!query.length) return [];
  return subjects.filter((subject) => {
    const label = words(subject.label);
    return query.every((word) => label.includes(word));
  });
}
