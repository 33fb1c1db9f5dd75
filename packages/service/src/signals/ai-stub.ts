/**
 * The AI endpoints as deterministic stubs: the same request always gets the same answer, read
 * off the sample data, and every answer says it is a stub. Their payloads and responses are
 * "not shown" in the reference; the shapes chosen here are listed in docs/signals.md. What
 * matters for a client under test is the shared rate limit in front of them (routes.ts).
 */
import * as sample from "./sample.js";
import type { Geography } from "./types.js";

export type AiEndpoint = "investigate" | "investigate/stream" | "analyze";

export interface AiAnswer {
  ok: true;
  answer: string;
  signalIds: string[];
}

/** The question a body asks (`question`, else `query`, else `prompt`) and the geography it names (default US). */
function read(body: unknown): { question: string; geography: Geography } {
  const object = typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const question = [object.question, object.query, object.prompt].find((value): value is string => typeof value === "string") ?? "";
  return { question, geography: object.geography === "UK" ? "UK" : "US" };
}

export function aiAnswer(endpoint: AiEndpoint, body: unknown): AiAnswer {
  const { question, geography } = read(body);
  const { signals } = sample.signals({ geography, periods: 1, detail: false });
  const { summary } = sample.cpix(geography);
  const lead = endpoint === "analyze" ? "Sample analysis" : "Sample answer";
  const asked = question ? ` to "${question.length > 200 ? `${question.slice(0, 200)}...` : question}"` : "";
  const answer =
    `${lead}${asked} from wfkit serve's stub (no AI; the same request always gets this text). ` +
    `For ${geography}, the sample composite index is ${summary.score} (${summary.classification}, ${summary.change >= 0 ? "+" : ""}${summary.change} on the week), ` +
    `and the week's signals are: ${signals.map((signal) => signal.headline).join("; ")}.`;
  return { ok: true, answer, signalIds: signals.map((signal) => signal.id) };
}

/** `investigate/stream` as Server-Sent Events: the answer a sentence at a time (`token`), then `done` with the signal ids. */
export function aiEventStream(answer: AiAnswer): string {
  const sentences = answer.answer.match(/[^.]+(\.|$)\s*/g) ?? [answer.answer];
  const events = [...sentences.map((text) => ["token", { text }] as const), ["done", { ok: true, signalIds: answer.signalIds }] as const];
  return events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join("");
}
