/** `wfkit subjects resolve HINT...`: company hints to canonical subjects, in one call. */
import { parseCommandArgs } from "../args.js";
import { UsageError } from "../errors.js";
import type { Io } from "../io.js";
import { printable } from "../printable.js";
import { connect, printJson, reportingRefusals } from "../remote.js";
import { subjectsSpec } from "./specs.js";

/** A Map, not an object: a reason the service sends (`constructor`...) must never find an inherited member. */
const REASONS: ReadonlyMap<string, string> = new Map([
  ["ambiguous", "ambiguous: more than one company matches; use one of the candidates' ids"],
  ["unlisted", "unlisted: held, but with no listed equity to run against"],
  ["lookup_failed", "lookup_failed: the resolver could not be reached; this says nothing about the company (try again)"],
  ["not_found", "not_found: no company matches"],
]);

export async function runSubjects(argv: readonly string[], io: Io): Promise<number> {
  const args = parseCommandArgs(subjectsSpec, argv);
  const [action, ...hints] = args.positionals;
  if (action !== "resolve") throw new UsageError(action === undefined ? "say what to do: `wfkit subjects resolve HINT...`" : `unknown action \`${action}\`; the only one is \`resolve\``, "subjects");
  if (!hints.length) throw new UsageError("give at least one hint (a ticker or a name)", "subjects");
  const { client, format } = connect(args, io, "subjects");
  return reportingRefusals(io, format, async () => {
    const answer = await client.resolveSubjects(hints);
    if (format === "json") printJson(io, answer);
    else {
      const lines = answer.subjects.map((subject) => `${printable(subject.canonicalId)}  ${printable(subject.label)}`);
      for (const unresolved of answer.unresolved) {
        lines.push(`unresolved ${printable(JSON.stringify(unresolved.hint))}: ${REASONS.get(unresolved.reason) ?? printable(unresolved.reason)}`);
        for (const candidate of unresolved.candidates ?? []) lines.push(`  candidate ${printable(candidate.canonicalId)}  ${printable(candidate.label)} (${printable(candidate.ticker)})`);
      }
      io.stdout.write(lines.join("\n") + "\n");
    }
    return answer.unresolved.length ? 1 : 0;
  });
}
