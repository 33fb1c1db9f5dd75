/**
 * `wfkit signals`, `wfkit alerts` and `wfkit views`: the BUILT CLI as a child process against
 * the service's Consumer Signals API (`startServer` from its sources, in this process, on
 * loopback), reached through a recording proxy (../../../test/support/recording-proxy.ts) so
 * each test sees what was sent; its base URL and credentials from the environment as a user
 * sets them. Expected data is read from the sample data the service answers from.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { SIGNALS_PARAMS } from "@wfkit/api";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Clock, signalsErrors, SIGNALS_BASE_PATH, startServer, type RunningServer } from "../../service/src/index.js";
import * as sample from "../../service/src/signals/sample.js";
import { recordingProxy, type RecordingProxy } from "../../../test/support/recording-proxy.js";
import { bin, ensureBuilt, fixtures, runCli, type RunResult } from "../../../test/support/built-cli.js";
import { tempTree } from "../../../test/support/temp-tree.js";

let server: RunningServer;
/** In front of the service: what the CLI sends passes through it and is logged. */
let proxy: RecordingProxy;
let JWT: string;
let ALERT_TOKEN: string;

beforeAll(async () => {
  ensureBuilt();
  const clock = new Clock("manual");
  server = await startServer({ port: 0, hostname: "127.0.0.1", clock });
  const credentials = server.service.signalsCredentials();
  if (!credentials.jwt || !credentials.alertToken) throw new Error("the service's seed gave no Consumer Signals credentials");
  JWT = credentials.jwt;
  ALERT_TOKEN = credentials.alertToken;
  proxy = await recordingProxy(server.baseUrl, { basePath: SIGNALS_BASE_PATH, now: () => clock.now() });
});
afterAll(async () => {
  await proxy?.close();
  await server?.stop();
});
beforeEach(() => {
  proxy.log.length = 0;
});

/** The service's alerts for the alert token's user, asked for directly (not through the proxy). */
async function serviceAlerts(): Promise<{ id: string }[]> {
  const reply = await fetch(`${server.signalsBaseUrl}/api/alerts`, { headers: { "X-Alert-Token": ALERT_TOKEN } });
  expect(reply.status).toBe(200);
  return (await reply.json()) as { id: string }[];
}

/** A number as the CLI writes a change: its sign always. */
const signed = (value: number, digits = 1) => `${value >= 0 ? "+" : ""}${value.toFixed(digits)}`;
/** A trend drawn on `ramp`, lowest to highest: each point at its place between the trend's lowest and highest, to the nearest step. */
function sparkOf(trend: readonly number[], ramp: string): string {
  const low = Math.min(...trend);
  const high = Math.max(...trend);
  return trend.map((value) => ramp[Math.round(((value - low) / (high - low)) * (ramp.length - 1))]).join("");
}
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The built CLI, without blocking this process (which serves the API meanwhile). */
function wfkit(args: string[], env: Record<string, string> = {}, cwd = fixtures): Promise<RunResult> {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", WFKIT_SIGNALS_URL: proxy.baseUrl, WFKIT_SIGNALS_JWT: JWT, WFKIT_ALERT_TOKEN: ALERT_TOKEN, WFKIT_RETRY_BUDGET_MS: "500", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  return new Promise((resolve) => child.once("close", (status) => resolve({ status, stdout, stderr })));
}

const ASCII = /^[\x20-\x7e\n]*$/;
const ESC = "\u001b";

describe("wfkit signals", () => {
  it("list: one line per signal, severity first, ASCII when not on a terminal; --json is the service's answer", async () => {
    const text = await wfkit(["signals", "list"]);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toMatch(ASCII);
    const lines = text.stdout.trimEnd().split("\n");
    const answer = sample.signals({ geography: "US", periods: SIGNALS_PARAMS.periods.default, detail: false });
    expect(answer.count).toBeGreaterThan(1);
    expect(lines[0]).toBe(`US signals: ${answer.count}, updated ${answer.lastUpdated}`);
    expect(lines.slice(1).map((line) => line.split(/\s{2,}/).filter(Boolean))).toEqual(
      answer.signals.map((signal) => [signal.severity.toUpperCase(), signal.category, `${Math.round(signal.confidence * 100)}%`, signal.headline]),
    );
    const json = await wfkit(["signals", "list", "--geography", "UK", "--severity", "high", "--periods", "2", "--json"]);
    expect(json.status, json.stderr).toBe(0);
    const ukHigh = sample.signals({ geography: "UK", severity: "high", periods: 2, detail: false }).signals.map((signal) => signal.id);
    expect(ukHigh.length).toBeGreaterThan(0);
    expect(JSON.parse(json.stdout).signals.map((s: { id: string }) => s.id)).toEqual(ukHigh);
    expect(proxy.log.map((entry) => [entry.path, entry.query, entry.authorization])).toEqual([
      ["/api/signals", { geography: "US" }, `Bearer ${JWT}`],
      ["/api/signals", { geography: "UK", severity: "high", periods: "2" }, `Bearer ${JWT}`],
    ]);
  });

  it("index: the score, its change and each driver's trend as a sparkline (ASCII, then blocks and colour when forced)", async () => {
    const { summary, drivers } = sample.cpix("US");
    // The sample's latest week rose, so the arrow points up.
    expect(summary.change).toBeGreaterThan(0);
    const plain = await wfkit(["signals", "index"]);
    expect(plain.status, plain.stderr).toBe(0);
    expect(plain.stdout).toMatch(ASCII);
    expect(plain.stdout.split("\n")[0]).toBe(`CPIX US ${summary.score.toFixed(1)}  ^ ${signed(summary.change)} (${signed(summary.changePercent)}%)  ${summary.classification.replace(/_/g, " ")}`);
    // The first driver's trend: each point drawn at its place between the trend's lowest and highest.
    const first = drivers[0]!;
    const line = plain.stdout.split("\n").find((text) => text.trimStart().startsWith(first.name))!;
    expect(line.trim().split(/\s{2,}/)).toEqual([first.name, `${first.value.toFixed(1)} ${first.unit}`, signed(first.contribution, 2), first.direction, sparkOf(first.trend, "_.-^")]);
    const coloured = await wfkit(["signals", "index"], { FORCE_COLOR: "1" });
    expect(coloured.stdout).toContain(ESC);
    expect(coloured.stdout).toContain("▲");
    expect(coloured.stdout).toContain(sparkOf(first.trend, "▁▂▃▄▅▆▇█"));
    const noColor = await wfkit(["signals", "index"], { FORCE_COLOR: "1", NO_COLOR: "1" });
    expect(noColor.stdout).toBe(plain.stdout);
  });

  it("history: a chart of the asked range fitted to --width, its labels the range's lowest and highest values", async () => {
    const result = await wfkit(["signals", "history", "--from", "2023-01-02", "--to", "2024-12-30", "--width", "60"]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(ASCII);
    const lines = result.stdout.trimEnd().split("\n");
    const points = sample.history("US", "2023-01-02", "2024-12-30").history;
    const values = points.map((point) => point.value);
    const [high, low] = [Math.max(...values).toFixed(1), Math.min(...values).toFixed(1)];
    const labelWidth = Math.max(high.length, low.length);
    expect(points[0]!.date).toBe("2023-01-02");
    expect(points[points.length - 1]!.date).toBe("2024-12-30");
    expect(lines[0]).toBe(`CPIX US from 2023-01-02 to 2024-12-30: ${points.length} points`);
    expect(lines).toHaveLength(1 + 8 + 1 + 1);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(60);
    expect(lines[1]).toMatch(new RegExp(`^${escaped(high.padStart(labelWidth))} \\+[#. ]+$`));
    expect(lines[8]).toMatch(new RegExp(`^${escaped(low.padStart(labelWidth))} \\+[#.]+$`));
    expect(lines[9]).toMatch(new RegExp(`^ {${labelWidth + 2}}2023-01-02 +2024-12-30$`));
    expect(lines[9]!.length).toBe(60);
    expect(lines[10]).toBe(`  last ${points[points.length - 1]!.value.toFixed(1)} (2024-12-30), low ${low}, high ${high}`);
    expect(proxy.log[0]!.query).toEqual({ geography: "US", from: "2023-01-02", to: "2024-12-30" });

    const narrow = await wfkit(["signals", "history", "--from", "2024-01-01", "--to", "2024-06-30"], { COLUMNS: "40" });
    expect(narrow.stdout.split("\n").every((line) => line.length <= 40)).toBe(true);
    const narrowIndex = await wfkit(["signals", "index", "--width", "30"]);
    const indexLines = narrowIndex.stdout.split("\n");
    expect(indexLines.every((line) => line.length <= 30)).toBe(true);
    // Too narrow for the table: each driver as text wrapped at spaces, its own lines hanging
    // under its first, each line as full as the next word allows.
    const driverLines = indexLines.slice(indexLines.indexOf("Drivers:") + 1, -1);
    const wrapped: string[][] = [];
    for (const text of driverLines) {
      if (/^ {2}\S/.test(text)) wrapped.push([text]);
      else {
        expect(text).toMatch(/^ {4}\S/);
        wrapped[wrapped.length - 1]!.push(text);
      }
    }
    const { drivers } = sample.cpix("US");
    expect(wrapped.map((driver) => driver.map((text) => text.trim()).join(" "))).toEqual(
      drivers.map((driver) => `${driver.name}: ${driver.value.toFixed(1)} ${driver.unit}, ${signed(driver.contribution, 2)}, ${driver.direction}`),
    );
    expect(wrapped[0]!.length).toBeGreaterThan(1);
    for (const driver of wrapped) for (let i = 1; i < driver.length; i++) expect(driver[i - 1]!.length + 1 + driver[i]!.trim().split(" ")[0]!.length).toBeGreaterThan(30);
    const blocks = await wfkit(["signals", "history", "--from", "2024-01-01", "--to", "2024-06-30", "--width", "50"], { FORCE_COLOR: "1" });
    expect(blocks.stdout).toMatch(/[▁▂▃▄▅▆▇█]/);
    expect(blocks.stdout).toContain("┤");
  });

  it("briefing: the headline, score and sections, wrapped", async () => {
    const briefing = sample.briefing("UK")!;
    const result = await wfkit(["signals", "briefing", "--geography", "UK", "--width", "100"]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout.split("\n").slice(0, 2)).toEqual([
      `Week of ${briefing.weekStart}, UK: ${briefing.headline}`,
      `  score ${briefing.score}/100, ${briefing.classification.replace(/_/g, " ")} (${briefing.narrativeSource}, generated ${briefing.generatedAt})`,
    ]);
    for (const text of Object.values(briefing.sections)) expect(result.stdout).toContain(text);
    const percent = (p: number) => `${Math.round(p * 100)}%`;
    const outlook = briefing.consumerOutlook;
    expect(result.stdout).toContain(`stabilisation ${percent(outlook.stabilisation)}, moderate deterioration ${percent(outlook.moderateDeterioration)}, sharp deterioration ${percent(outlook.sharpDeterioration)}`);
    expect(briefing.keyDates.some((date) => date.confirmed)).toBe(true);
    for (const date of briefing.keyDates) expect(result.stdout).toContain(`\n  ${date.date}: ${date.event} (${date.type}, ${date.relevance}, ${date.confirmed ? "confirmed" : "not confirmed"})\n`);
    expect(proxy.log[0]!.query).toEqual({ geography: "UK" });
    const summary = sample.briefing("US")!.sections.summary;
    for (const columns of ["40", "20"]) {
      const narrow = await wfkit(["signals", "briefing", "--width", columns]);
      expect(narrow.stdout.split("\n").every((line) => line.length <= Number(columns))).toBe(true);
      expect(narrow.stdout.replace(/\s+/g, " ")).toContain(summary);
    }
  });

  it("a parameter the service would refuse is a usage error naming its flag, and nothing is sent", async () => {
    const cases: [string[], RegExp][] = [
      [["signals", "list", "--geography", "uk"], /^wfkit signals: --geography: `geography` is "uk", .*did you mean "UK"\?/],
      [["signals", "list", "--severity", "urgent"], /^wfkit signals: --severity: `severity` is "urgent"/],
      [["signals", "list", "--periods", "0"], /^wfkit signals: --periods: `periods` is 0, .*whole number of 1 or more/],
      [["signals", "list", "--periods", "two"], /^wfkit signals: --periods: `periods` is "two"/],
      [["signals", "history", "--from", "2024-02-30"], /^wfkit signals: --from: `from` is "2024-02-30", which is not a date on the calendar/],
      [["signals", "history", "--from", "2024-06-01", "--to", "2024-01-01"], /^wfkit signals: --from: `from` \(2024-06-01\) is after `to` \(2024-01-01\)/],
      [["signals", "index", "--severity", "high"], /^wfkit signals: --severity applies to `signals list` only/],
      [["signals", "chart"], /^wfkit signals: say what to read/],
      [["signals", "list", "--width", "5"], /^wfkit signals: --width must be a whole number of columns, 20 or more/],
    ];
    for (const [args, message] of cases) {
      const result = await wfkit(args);
      expect(result.status, args.join(" ")).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).toMatch(/\(see `wfkit signals --help`\)\n$/);
      expect(result.stdout).toBe("");
    }
    expect(proxy.log).toEqual([]);
  });

  it("no address or credential: exit 2 saying which variable to set; a refused JWT: exit 1; no service: exit 2", async () => {
    const noUrl = await wfkit(["signals", "index"], { WFKIT_SIGNALS_URL: "" });
    expect([noUrl.status, noUrl.stderr]).toEqual([2, "wfkit: no Consumer Signals API address: give --base-url URL or set WFKIT_SIGNALS_URL (`wfkit serve --json` prints the local one as `signalsBaseUrl`)\n"]);
    const noJwt = await wfkit(["signals", "index"], { WFKIT_SIGNALS_JWT: "" });
    expect(noJwt.status).toBe(2);
    expect(noJwt.stderr).toMatch(/needs the JWT; set WFKIT_SIGNALS_JWT, or give --token-file FILE/);
    const refused = await wfkit(["signals", "index"], { WFKIT_SIGNALS_JWT: "not-the-jwt" });
    expect([refused.status, refused.stderr]).toEqual([
      1,
      "wfkit: the service refused the JWT (401 on GET /api/cpix): it is missing, unknown or expired. Check WFKIT_SIGNALS_JWT or the --token-file file.\n",
    ]);
    const refusedJson = await wfkit(["signals", "index", "--json"], { WFKIT_SIGNALS_JWT: "not-the-jwt" });
    expect(JSON.parse(refusedJson.stdout)).toMatchObject({ error: { ok: false, kind: "unauthenticated", status: 401, request: "GET /api/cpix" } });
    expect(refusedJson.stdout + refusedJson.stderr).not.toContain("not-the-jwt");
    const fromFile = tempTree({ "jwt.txt": `${JWT}\n` });
    const withFile = await wfkit(["signals", "index", "--token-file", path.join(fromFile, "jwt.txt")], { WFKIT_SIGNALS_JWT: "" });
    expect(withFile.status, withFile.stderr).toBe(0);
    const away = await wfkit(["signals", "index", "--base-url", "http://127.0.0.1:9/cs"]);
    expect(away.status).toBe(2);
    expect(away.stderr).toMatch(/^wfkit: no answer from http:\/\/127\.0\.0\.1:9\/cs to GET \/api\/cpix: .*is the service running, and is the base URL right\?/);
    expect(away.stderr.split("\n")).toHaveLength(2);
  });
});

describe("wfkit alerts create", () => {
  it("checks the body, then sends it with the alert token ($schema left out)", async () => {
    const result = await wfkit(["alerts", "create", "signals/cpix-above-60.alert.json"]);
    expect(result.status, result.stderr).toBe(0);
    const id = /^Created alert (\S+) \(CPIX above 60\): cpix_threshold above 60, notifying analyst@example\.com\n$/.exec(result.stdout)?.[1];
    expect(id, result.stdout).toBeDefined();
    const sent = JSON.parse(readFileSync(path.join(fixtures, "signals/cpix-above-60.alert.json"), "utf8"));
    delete sent.$schema;
    expect(proxy.log).toHaveLength(1);
    expect(proxy.log[0]).toMatchObject({ method: "POST", path: "/api/alerts", body: sent, alertToken: ALERT_TOKEN, authorization: undefined });
    const json = await wfkit(["alerts", "create", "signals/cpix-above-60.alert.json", "--json"]);
    const second = JSON.parse(json.stdout) as { ok: boolean; alert: { id: string } };
    expect(second).toMatchObject({ ok: true, alert: { name: "CPIX above 60", active: true } });
    expect(second.alert.id).not.toBe(id);
    // Both are the service's: its list has them, in the order they were made.
    expect((await serviceAlerts()).map((alert) => alert.id).slice(-2)).toEqual([id, second.alert.id]);
  });

  it("a body with faults: the faults as `wfkit check` prints them, exit 1, nothing sent, no credential needed", async () => {
    const result = await wfkit(["alerts", "create", "signals/grocery.alert.json"], { WFKIT_ALERT_TOKEN: "", WFKIT_SIGNALS_URL: "" });
    expect(result.status).toBe(1);
    const check = runCli(["check", "signals/grocery.alert.json"]);
    // check's report without its closing summary (the blank line before it included).
    const faults = check.stdout.slice(0, check.stdout.lastIndexOf("\n\n") + 1);
    expect(faults).toContain("error[alert-type-unknown]");
    expect(result.stderr).toBe(`${faults}wfkit: signals/grocery.alert.json has errors; nothing was sent (the service would refuse it too)\n`);
    expect(result.stdout).toBe("");
    expect(proxy.log).toEqual([]);
  });

  it("a file that is not an alert body is refused with what to do (exit 2)", async () => {
    const view = await wfkit(["alerts", "create", "signals/energy.view.json"]);
    expect([view.status, view.stderr]).toEqual([2, "wfkit: signals/energy.view.json is a saved-view body, not an alert body; send it with `wfkit views create`\n"]);
    const plain = await wfkit(["alerts", "create", "signals/notes.json"]);
    expect(plain.status).toBe(2);
    expect(plain.stderr).toBe(
      'wfkit: signals/notes.json is not recognised as an alert body, so `wfkit check` would judge it as a workflow definition: name it *.alert.json, or add "$schema": "https://wfkit.dev/schema/alert.schema.json"\n',
    );
    const missing = await wfkit(["alerts", "create", "signals/none.alert.json"]);
    expect([missing.status, missing.stderr]).toEqual([2, "wfkit: signals/none.alert.json: no such file or directory\n"]);
    const broken = tempTree({ "wfkit.config.json": "{}", "x.alert.json": '{ "name": ' });
    const syntax = await wfkit(["alerts", "create", "x.alert.json"], {}, broken);
    expect(syntax.status).toBe(1);
    expect(syntax.stderr).toMatch(/^error\[/);
    expect(proxy.log).toEqual([]);
  });
});

describe("wfkit views", () => {
  it("create, list, delete; a second delete is not found (exit 1)", async () => {
    const driverIds = sample.cpix("UK").drivers.map((driver) => driver.id);
    const dir = tempTree({
      "wfkit.config.json": "{}",
      "energy.view.json": JSON.stringify({ name: "UK energy", geography: "UK", driver_ids: driverIds, question: "Is energy still rising?" }),
    });
    const created = await wfkit(["views", "create", "energy.view.json"], {}, dir);
    expect(created.status, created.stderr).toBe(0);
    const id = /^Saved view (\S+) \(UK energy, UK\)\n$/.exec(created.stdout)?.[1];
    expect(id).toBeDefined();
    const list = await wfkit(["views", "list"], {}, dir);
    expect(list.stdout).toBe(`${id}  UK  UK energy  ${driverIds.join(",")}  Is energy still rising?\n`);
    const listJson = await wfkit(["views", "list", "--json"], {}, dir);
    expect(JSON.parse(listJson.stdout)).toEqual({ views: [{ id, name: "UK energy", geography: "UK", driver_ids: driverIds, question: "Is energy still rising?" }] });
    const deleted = await wfkit(["views", "delete", id!], {}, dir);
    expect([deleted.status, deleted.stdout]).toEqual([0, `Deleted saved view ${id}\n`]);
    const again = await wfkit(["views", "delete", id!], {}, dir);
    expect([again.status, again.stderr]).toEqual([1, `wfkit: not found (404 on DELETE /api/views/${id}): ${signalsErrors.viewNotFound(id!).message}\n`]);
    expect((await wfkit(["views", "list"], {}, dir)).stdout).toBe("no saved views\n");
    expect(proxy.log.every((entry) => entry.alertToken === ALERT_TOKEN && entry.authorization === undefined)).toBe(true);
    expect(proxy.log.map((entry) => `${entry.method} ${entry.path}`)).toEqual(["POST /api/views", "GET /api/views", "GET /api/views", `DELETE /api/views/${id}`, `DELETE /api/views/${id}`, "GET /api/views"]);
  });

  it("a view body with faults is not sent; a wrong alert token is refused naming its variable", async () => {
    const bad = await wfkit(["views", "create", "signals/energy.view.json"]);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain("error[view-field-type]");
    expect(proxy.log).toEqual([]);
    const refused = await wfkit(["views", "list"], { WFKIT_ALERT_TOKEN: "nope" });
    expect([refused.status, refused.stderr]).toEqual([1, "wfkit: the service refused the alert token (401 on GET /api/views): it is missing, unknown or expired. Check WFKIT_ALERT_TOKEN or the --token-file file.\n"]);
    const usage = await wfkit(["views", "remove", "x"]);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/^wfkit views: say what to do: `views list`, `views create FILE` or `views delete ID`/);
  });
});
