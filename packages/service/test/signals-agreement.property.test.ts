/**
 * One source of rules: the local service accepts an alert or saved-view body exactly when
 * @wfkit/core's checker passes it, and refuses it with the checker's own faults. Every
 * fixture of the alert and view rules goes through both, over HTTP on loopback, and so do
 * generated bodies that mix valid and faulty fields.
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALERT_CONDITIONS, ALERT_TYPES, CONDITIONS_BY_TYPE, TARGET_FIELD_BY_TYPE, THRESHOLD_TYPES, bodyRules, validateAlertBody, validateViewBody, type BodyValidationResult } from "@wfkit/core";
import { signalsServer, type SignalsServer } from "./signals-server.js";
import { numRuns } from "../../../test/support/num-runs.js";

const fixturesDir = fileURLToPath(new URL("../../core/test/fixtures/", import.meta.url));
type Body = "alert" | "view";
const judge: Record<Body, (input: unknown) => BodyValidationResult> = { alert: validateAlertBody, view: validateViewBody };
const route: Record<Body, string> = { alert: "/api/alerts", view: "/api/views" };

/** Every fixture file of every folder named for an alert or a view rule. */
function fixtures(): { name: string; body: Body; input: unknown }[] {
  return readdirSync(fixturesDir)
    .filter((folder) => /^(alert|view)-/.test(folder))
    .sort()
    .flatMap((folder) =>
      readdirSync(`${fixturesDir}${folder}`)
        .filter((file) => file.endsWith(".json"))
        .sort()
        .map((file) => ({
          name: `${folder}/${file}`,
          body: (folder.startsWith("alert-") ? "alert" : "view") as Body,
          input: (JSON.parse(readFileSync(`${fixturesDir}${folder}/${file}`, "utf8")) as { input: unknown }).input,
        })),
    );
}

let signals: SignalsServer;
beforeAll(async () => {
  signals = await signalsServer();
});
afterAll(async () => {
  await signals.stop();
});

/** Sends `input` and holds the service's answer to the checker's verdict. */
async function agree(body: Body, input: unknown, name: string): Promise<boolean> {
  const verdict = judge[body](input);
  const reply = await signals.withToken("POST", route[body], JSON.stringify(input));
  if (verdict.ok) {
    expect(reply.status, `${name}: the checker passes it, the service must accept it (${JSON.stringify(reply.body)})`).toBe(201);
    // What was accepted is what was sent: every field the body has and the resource keeps.
    for (const [field, value] of Object.entries(input as Record<string, unknown>)) if (field in reply.body) expect(reply.body[field], `${name}: ${field}`).toEqual(value);
  } else {
    expect(reply.status, `${name}: the checker refuses it, so must the service`).toBe(400);
    expect(reply.body, name).toMatchObject({ ok: false, code: "validation_failed" });
    expect(reply.body.faults, name).toEqual(verdict.faults);
  }
  return verdict.ok;
}

describe("the service's acceptance of alert and view bodies is the checker's verdict", () => {
  it("on every fixture of the alert and view rules", async () => {
    const all = fixtures();
    // Each body rule has a valid and an invalid fixture: none may be missed.
    expect(all.length).toBeGreaterThanOrEqual(2 * bodyRules.length);
    const verdicts = { accepted: 0, refused: 0 };
    for (const fixture of all) verdicts[(await agree(fixture.body, fixture.input, fixture.name)) ? "accepted" : "refused"]++;
    // Warnings-only invalid fixtures are accepted, so refusals are fewer than half.
    expect(verdicts.accepted).toBeGreaterThanOrEqual(bodyRules.length);
    expect(verdicts.refused).toBeGreaterThan(0);
  });

  it("on generated bodies, valid and faulty", async () => {
    const text = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom("grocery", "us_house_price_index", "Weekly"));
    const anyValue = fc.oneof(text, fc.integer({ min: -3, max: 100 }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), fc.array(text, { maxLength: 2 }));
    // A valid alert of each type (from core's pairing), then up to two fields replaced or removed.
    const validAlert = fc
      .record({
        type: fc.constantFrom(...ALERT_TYPES),
        pick: fc.nat(),
        threshold: fc.integer({ min: -50, max: 150 }),
        target: text,
        optional: fc.record(
          { geography: fc.constantFrom("US", "UK"), whatsapp_number: fc.constantFrom("+447700900123", "+15550100"), min_consecutive: fc.integer({ min: 1, max: 5 }) },
          { requiredKeys: [] },
        ),
      })
      .map(({ type, pick, threshold, target, optional }) => {
        const conditions = CONDITIONS_BY_TYPE[type];
        const targetField = TARGET_FIELD_BY_TYPE[type];
        return {
          name: "Generated",
          type,
          condition: conditions[pick % conditions.length]!,
          email: "analyst@example.com",
          ...(THRESHOLD_TYPES.includes(type) ? { threshold } : {}),
          ...(targetField ? { [targetField]: target } : {}),
          ...optional,
        } as Record<string, unknown>;
      });
    const alertFault = fc.oneof(
      fc.tuple(fc.constantFrom("name", "type", "condition", "email", "threshold", "sector_id", "series_key"), fc.constant(undefined)),
      fc.tuple(fc.constant("type"), fc.oneof(fc.constantFrom("cpix_treshold", "CPIX_THRESHOLD"), anyValue)),
      fc.tuple(fc.constant("condition"), fc.oneof(fc.constantFrom(...ALERT_CONDITIONS), fc.constant("belw"), anyValue)),
      fc.tuple(fc.constant("email"), fc.oneof(fc.constantFrom("nobody", "a b@example.com", "a@b"), anyValue)),
      fc.tuple(fc.constant("geography"), fc.oneof(fc.constantFrom("uk", "GB"), anyValue)),
      fc.tuple(fc.constant("whatsapp_number"), fc.oneof(fc.constantFrom("+1 555 0100", "0044 7700 900123", "12"), anyValue)),
      fc.tuple(fc.constant("min_consecutive"), fc.oneof(fc.constantFrom(0, -1, 1.5), anyValue)),
      fc.tuple(fc.constantFrom("threshold", "sector_id", "series_key", "name", "colour", "$schema"), anyValue),
    );
    const validView = fc.record({ name: text, geography: fc.constantFrom("US", "UK"), driver_ids: fc.array(text, { maxLength: 3 }), question: text }).map((view) => view as Record<string, unknown>);
    const viewFault = fc.oneof(
      fc.tuple(fc.constantFrom("name", "geography", "driver_ids", "question"), fc.constant(undefined)),
      fc.tuple(fc.constantFrom("name", "geography", "driver_ids", "question", "extra"), anyValue),
      fc.tuple(fc.constant("driver_ids"), fc.array(anyValue, { minLength: 1, maxLength: 2 })),
      fc.tuple(fc.constant("geography"), fc.constantFrom("gb", "us")),
    );
    const mutated = (valid: fc.Arbitrary<Record<string, unknown>>, fault: fc.Arbitrary<[string, unknown]>) =>
      fc.tuple(valid, fc.array(fault, { maxLength: 2 })).map(([body, faults]) => {
        const copy = { ...body };
        for (const [field, value] of faults) {
          if (value === undefined) delete copy[field];
          else copy[field] = value;
        }
        return copy;
      });
    const input = fc.oneof(
      { weight: 4, arbitrary: fc.tuple(fc.constant<Body>("alert"), mutated(validAlert, alertFault)) },
      { weight: 2, arbitrary: fc.tuple(fc.constant<Body>("view"), mutated(validView, viewFault)) },
      { weight: 1, arbitrary: fc.tuple(fc.constantFrom<Body>("alert", "view"), anyValue) },
    );
    const seen = { accepted: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(input, async ([body, value]) => {
        seen[(await agree(body, value, JSON.stringify(value))) ? "accepted" : "refused"]++;
      }),
      { numRuns: numRuns(300), seed: 19 },
    );
    // The generator reaches both verdicts.
    expect(seen.accepted).toBeGreaterThan(10);
    expect(seen.refused).toBeGreaterThan(10);
  });
});
