import type { Fault } from "../fault.js";
import { isPlainObject } from "../model.js";
import { bodyRules } from "../rules/index.js";
import { Suggester } from "../suggest.js";
import type { BodyRule } from "./body-rule.js";
import { notAnObjectMessage } from "./shared-checks.js";

/** The verdict on an alert or saved-view body: the shape of `validateDefinition`'s, with the body in place of the definition. */
export type BodyValidationResult = { ok: true; body: Record<string, unknown>; faults: Fault[] } | { ok: false; faults: Fault[] };

const byBody = (kind: "alert" | "view") => bodyRules.filter((rule) => rule.body === kind);
const ALERT_RULES = byBody("alert");
const VIEW_RULES = byBody("view");

/** Judges a `POST /api/alerts` body; every fault at once, never throws. Warnings leave it `ok`. */
export function validateAlertBody(input: unknown): BodyValidationResult {
  return judge(input, "alert", ALERT_RULES);
}

/** Judges a `POST /api/views` body; every fault at once, never throws. Warnings leave it `ok`. */
export function validateViewBody(input: unknown): BodyValidationResult {
  return judge(input, "saved view", VIEW_RULES);
}

function judge(input: unknown, bodyName: string, rules: readonly BodyRule[]): BodyValidationResult {
  const faults: Fault[] = [];
  if (!isPlainObject(input)) {
    // Only the types rule (the first) speaks to a body that is not an object.
    const { meta } = rules[0]!;
    faults.push({ code: meta.id, severity: meta.severity, message: notAnObjectMessage(bodyName, input), nodeId: null, pointer: "" });
    return { ok: false, faults };
  }
  const suggester = new Suggester();
  for (const rule of rules) {
    const { id: code, severity } = rule.meta;
    rule.check({
      body: input,
      suggester,
      report: ({ pointer, message, suggestion }) => {
        const fault: Fault = { code, severity, message, nodeId: null, pointer };
        if (suggestion !== undefined) fault.suggestion = suggestion;
        faults.push(fault);
      },
    });
  }
  const ok = !faults.some((fault) => fault.severity === "error");
  return ok ? { ok, body: input, faults } : { ok, faults };
}
