/**
 * The Consumer Signals reference's alerts, over HTTP against wfkit serve: "An alert of a given
 * type and condition triggers a notification to its email (and optionally its WhatsApp
 * number) when the condition holds, for min_consecutive consecutive periods when set. A
 * weekly_digest alert sends a weekly summary." The service judges its active alerts on its
 * clock, once per period, against its sample data, and records each notification instead of
 * sending it (GET /__admin/notifications).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { validateAlertBody } from "@wfkit/core";
import { Clock, type Seed } from "../src/index.js";
import { DAY_MS, fidelityServer, START, WEEK_MS, type FidelityServer } from "./fidelity-server.js";

let api: FidelityServer;
beforeEach(async () => {
  api = await fidelityServer();
});
afterEach(async () => {
  await api.stop();
});

const EMAIL = "analyst@example.com";
const notifications = async () => {
  const reply = await api.admin("GET", "/notifications");
  expect(reply.status).toBe(200);
  expect(reply.body.count).toBe(reply.body.notifications.length);
  return reply.body.notifications as any[];
};
const score = async (geography = "US") => (await api.http("GET", `/signals/api/cpix?geography=${geography}`, { credential: api.jwt })).body.summary as { score: number; change: number };
/** Weekly period ends after the manual clock's start: Mondays from 2026-01-05. */
const monday = (n: number) => new Date(Date.UTC(2026, 0, 5) + (n - 1) * WEEK_MS).toISOString();

describe("the reference's alert bodies are accepted, and what would never fire is a warning", () => {
  it.each([
    ["a cpix_threshold alert without threshold", { name: "n", type: "cpix_threshold", condition: "above", email: EMAIL }, "alert-threshold-missing"],
    ["a sector_pressure alert without sector_id", { name: "n", type: "sector_pressure", condition: "above", threshold: 50, email: EMAIL }, "alert-target-missing"],
    ["a series_threshold alert without series_key", { name: "n", type: "series_threshold", condition: "below", threshold: 5, email: EMAIL }, "alert-target-missing"],
    ["a condition wfkit does not pair with the type", { name: "n", type: "cpix_threshold", condition: "high", threshold: 50, email: EMAIL }, "alert-condition-mismatch"],
    ["a min_consecutive of 0", { name: "n", type: "cpix_threshold", condition: "above", threshold: 50, email: EMAIL, min_consecutive: 0 }, "alert-min-consecutive"],
  ])("%s: 201, and the checker warns with its reason", async (_, body, code) => {
    const reply = await api.createAlert(body);
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body).toMatchObject({ type: body.type, condition: body.condition, active: true });
    const verdict = validateAlertBody(body);
    expect(verdict.ok).toBe(true);
    const warning = verdict.faults.find((fault) => fault.code === code)!;
    expect(warning.severity).toBe("warning");
    expect(warning.message).toMatch(/never (fires|holds)|same as 1/);
  });

  it("still refuses what the reference does not accept (an unknown type, a missing email), 400 with the checker's faults", async () => {
    const reply = await api.createAlert({ name: "n", type: "cpix_level", condition: "above", threshold: 1 });
    expect(reply.status).toBe(400);
    expect(reply.body.faults.map((fault: { code: string }) => fault.code).sort()).toEqual(["alert-field-missing", "alert-type-unknown"]);
  });
});

describe("alerts notify when their condition holds", () => {
  it("a cpix_threshold alert whose condition holds notifies its email and WhatsApp number at the end of each week, recording the value and when; nothing is sent", async () => {
    const { score: level } = await score();
    const created = (await api.createAlert({ name: "CPIX high", type: "cpix_threshold", condition: "above", threshold: Math.floor(level) - 1, email: EMAIL, whatsapp_number: "+447700900123" })).body;
    expect(await notifications()).toEqual([]);
    await api.advance(3 * DAY_MS); // Sunday 2026-01-04: the first week has not ended
    expect(await notifications()).toEqual([]);
    await api.advance(DAY_MS); // Monday 2026-01-05 00:00 UTC
    const [first, ...rest] = await notifications();
    expect(rest).toEqual([]);
    expect(first).toMatchObject({
      alertId: created.id,
      alertName: "CPIX high",
      type: "cpix_threshold",
      condition: "above",
      threshold: Math.floor(level) - 1,
      geography: "US",
      email: EMAIL,
      whatsappNumber: "+447700900123",
      channels: ["email", "whatsapp"],
      value: level,
      period: "week",
      periodStart: "2025-12-29T00:00:00.000Z",
      periodEnd: monday(1),
      notifiedAt: monday(1),
      consecutivePeriods: 1,
      sent: false,
    });
    expect(first.detail).toBe(`The US composite index is ${level}, above ${Math.floor(level) - 1}.`);
    await api.advance(2 * WEEK_MS);
    expect((await notifications()).map((n) => n.notifiedAt)).toEqual([monday(1), monday(2), monday(3)]);
  });

  it("min_consecutive: the condition must hold that many periods in a row; each period after that notifies", async () => {
    const { score: level } = await score("UK");
    await api.createAlert({ name: "UK low", type: "cpix_threshold", condition: "below", threshold: Math.ceil(level) + 1, geography: "UK", email: EMAIL, min_consecutive: 3 });
    await api.advance(4 * DAY_MS + WEEK_MS); // two weeks judged
    expect(await notifications()).toEqual([]);
    await api.advance(WEEK_MS);
    expect((await notifications()).map((n) => [n.notifiedAt, n.consecutivePeriods, n.email, n.channels])).toEqual([[monday(3), 3, EMAIL, ["email"]]]);
    await api.advance(WEEK_MS);
    expect((await notifications()).map((n) => n.consecutivePeriods)).toEqual([3, 4]);
  });

  it("a fractional min_consecutive waits for the next whole number of periods (1.5: two)", async () => {
    const { score: level } = await score();
    await api.createAlert({ name: "n", type: "cpix_threshold", condition: "above", threshold: level - 1, email: EMAIL, min_consecutive: 1.5 });
    await api.advance(4 * DAY_MS);
    expect(await notifications()).toEqual([]);
    await api.advance(WEEK_MS);
    expect((await notifications()).map((n) => n.consecutivePeriods)).toEqual([2]);
  });

  it("conditions that do not hold notify nobody, nor do alerts that never fire (no threshold, no target, an unknown sector or series, a condition of another type)", async () => {
    const { score: level, change } = await score();
    const bodies = [
      { name: "not above", type: "cpix_threshold", condition: "above", threshold: level + 1, email: EMAIL },
      { name: "not below", type: "cpix_threshold", condition: "below", threshold: level - 1, email: EMAIL },
      { name: "no rise that big", type: "cpix_change", condition: "rises_by", threshold: Math.abs(change) + 1, email: EMAIL },
      { name: "no fall that big", type: "cpix_change", condition: "falls_by", threshold: Math.abs(change) + 1, email: EMAIL },
      { name: "no threshold", type: "cpix_threshold", condition: "above", email: EMAIL },
      { name: "no sector", type: "sector_pressure", condition: "above", threshold: 0, email: EMAIL },
      { name: "unknown sector", type: "sector_pressure", condition: "above", threshold: 0, sector_id: "shipbuilding", email: EMAIL },
      { name: "no series", type: "series_threshold", condition: "above", threshold: 0, email: EMAIL },
      { name: "unknown series", type: "series_threshold", condition: "above", threshold: 0, series_key: "moon_price_index", email: EMAIL },
      { name: "a severity for a level", type: "cpix_threshold", condition: "high", threshold: 0, email: EMAIL },
    ];
    for (const body of bodies) expect((await api.createAlert(body)).status, body.name).toBe(201);
    await api.advance(40 * DAY_MS); // five weekly period ends and one monthly
    expect(await notifications()).toEqual([]);
  });

  it("an inactive alert notifies nobody: POST /__admin/alerts/{id} {active: false} turns it off, true on again (its run starts afresh)", async () => {
    const { score: level } = await score();
    const id = (await api.createAlert({ name: "n", type: "cpix_threshold", condition: "above", threshold: level - 1, email: EMAIL, min_consecutive: 2 })).body.id;
    await api.advance(4 * DAY_MS); // one week held
    const off = await api.admin("POST", `/alerts/${id}`, { active: false });
    expect(off.status).toBe(200);
    expect(off.body.alert).toMatchObject({ id, active: false });
    expect((await api.http("GET", "/signals/api/alerts", { credential: null, alertToken: api.alertToken })).body[0].active).toBe(false);
    await api.advance(3 * WEEK_MS);
    expect(await notifications()).toEqual([]);
    expect((await api.admin("POST", `/alerts/${id}`, { active: true })).body.alert.active).toBe(true);
    await api.advance(WEEK_MS); // the first week after re-activation: its run is 1 of 2
    expect(await notifications()).toEqual([]);
    await api.advance(WEEK_MS);
    expect((await notifications()).map((n) => [n.notifiedAt, n.consecutivePeriods])).toEqual([[monday(6), 2]]);
  });

  it("POST /__admin/alerts/{id} takes {active: true|false} only, for an alert that exists, with the admin token", async () => {
    expect((await api.admin("POST", "/alerts/alert_nope", { active: false })).body).toMatchObject({ error: "alert_not_found" });
    const id = (await api.createAlert({ name: "n", type: "weekly_digest", condition: "any", email: EMAIL })).body.id;
    expect((await api.admin("POST", `/alerts/${id}`, { active: "no" })).status).toBe(400);
    expect((await api.admin("POST", `/alerts/${id}`, { active: false, name: "x" })).status).toBe(400);
    expect((await api.http("POST", `/__admin/alerts/${id}`, { body: { active: false } })).status).toBe(403);
    expect((await api.http("GET", "/__admin/notifications", { credential: api.keys.write })).body).toMatchObject({ error: "admin_forbidden" });
  });

  it("a weekly_digest alert sends a weekly summary every week", async () => {
    const { score: level } = await score("UK");
    await api.createAlert({ name: "Digest", type: "weekly_digest", condition: "any", geography: "UK", email: EMAIL });
    await api.advance(4 * DAY_MS + 2 * WEEK_MS);
    const sent = await notifications();
    expect(sent.map((n) => [n.type, n.condition, n.notifiedAt, n.value])).toEqual([
      ["weekly_digest", "any", monday(1), level],
      ["weekly_digest", "any", monday(2), level],
      ["weekly_digest", "any", monday(3), level],
    ]);
    expect(sent[0].detail).toMatch(/^Weekly digest for UK: the composite index is /);
  });

  it("signal_severity: high counts the week's high-severity signals, medium those of medium or high severity", async () => {
    const week = (await api.http("GET", "/signals/api/signals?geography=US", { credential: api.jwt })).body.signals as { id: string; severity: string }[];
    await api.createAlert({ name: "High", type: "signal_severity", condition: "high", email: EMAIL });
    await api.createAlert({ name: "Medium", type: "signal_severity", condition: "medium", email: EMAIL });
    await api.advance(4 * DAY_MS);
    const [high, medium] = await notifications();
    expect(high).toMatchObject({ alertName: "High", value: week.filter((s) => s.severity === "high").length, signalIds: week.filter((s) => s.severity === "high").map((s) => s.id) });
    expect(medium).toMatchObject({ alertName: "Medium", value: week.filter((s) => s.severity !== "low").length });
    expect(high.value).toBeGreaterThan(0);
  });

  it("cpix_change compares the week's change; sector_pressure a sector's import-pressure score, weekly; series_threshold a series' latest value, monthly", async () => {
    const { change } = await score();
    const pressure = (await api.http("GET", "/signals/api/sectors/grocery/import-pressure?geography=UK", { credential: api.jwt })).body.importPressureScore as number;
    const housing = (await api.http("GET", "/signals/api/housing", { credential: api.jwt })).body.housing as { date: string; series_key: string; value: number }[];
    const latest = housing.filter((o) => o.series_key === "uk_house_price_index").sort((a, b) => a.date.localeCompare(b.date)).pop()!;
    await api.createAlert({ name: "Change", type: "cpix_change", condition: change >= 0 ? "rises_by" : "falls_by", threshold: Math.abs(change), email: EMAIL });
    await api.createAlert({ name: "Grocery", type: "sector_pressure", condition: "above", threshold: pressure - 1, sector_id: "grocery", geography: "UK", email: EMAIL });
    await api.createAlert({ name: "Houses", type: "series_threshold", condition: "above", threshold: latest.value - 1, series_key: "uk_house_price_index", email: EMAIL });
    await api.advance(31 * DAY_MS + 1); // to 2026-02-01: four Mondays, one month end
    const sent = await notifications();
    const of = (name: string) => sent.filter((n) => n.alertName === name);
    expect(of("Change").map((n) => n.value)).toEqual([change, change, change, change]);
    expect(of("Grocery").map((n) => [n.period, n.value])).toEqual(Array(4).fill(["week", pressure]));
    expect(of("Houses").map((n) => [n.period, n.periodStart, n.periodEnd, n.value])).toEqual([["month", "2026-01-01T00:00:00.000Z", "2026-02-01T00:00:00.000Z", latest.value]]);
    // Oldest first: by the end of the period that triggered each.
    expect(sent.map((n) => n.notifiedAt)).toEqual([...sent.map((n) => n.notifiedAt)].sort());
  });

  it("judges only the periods after the alert was made, and each user's alerts notify that alert's address", async () => {
    const { score: level } = await score();
    await api.advance(5 * DAY_MS); // Tuesday 2026-01-06: the first Monday has passed
    await api.createAlert({ name: "late", type: "cpix_threshold", condition: "above", threshold: level - 1, email: "late@example.com" });
    await api.advance(5 * DAY_MS); // Sunday
    expect(await notifications()).toEqual([]);
    await api.advance(DAY_MS);
    expect((await notifications()).map((n) => [n.email, n.notifiedAt])).toEqual([["late@example.com", monday(2)]]);
  });
});

describe("notifications are kept with the data", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), "wfkit-alerts-"));
  });
  afterEach(async () => {
    await api.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("across a restart on --db, and an admin reset empties them", async () => {
    await api.stop();
    const seed: Seed = { accounts: [{ id: "a", plan: "professional" }], users: [{ id: "u", account: "a" }], alertTokens: [{ user: "u", token: "wfat_fidelity0123456789ab" }] };
    const db = path.join(dir, "service.db");
    api = await fidelityServer({ db, seed, clock: new Clock("manual", START) });
    await api.createAlert({ name: "Digest", type: "weekly_digest", condition: "any", email: EMAIL });
    await api.advance(4 * DAY_MS);
    expect(await notifications()).toHaveLength(1);
    await api.stop();
    // The service's clock restarts at its start; the alert was judged up to the first Monday.
    api = await fidelityServer({ db, seed, clock: new Clock("manual", START) });
    expect((await notifications()).map((n) => n.notifiedAt)).toEqual([monday(1)]);
    await api.advance(4 * DAY_MS + WEEK_MS);
    expect((await notifications()).map((n) => n.notifiedAt)).toEqual([monday(1), monday(2)]);
    expect((await api.admin("POST", "/reset")).status).toBe(200);
    expect(await notifications()).toEqual([]);
  });
});
