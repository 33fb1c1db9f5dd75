/**
 * The notifications wfkit serve records for its alerts, read the ways a user reads them: the
 * admin surface over HTTP, @wfkit/client's `listNotifications`, and `wfkit alerts
 * notifications` (the CLI's command, in this process, against the service on loopback).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listNotifications, SignalsApiError, SignalsNetworkError, WorkflowsApiError } from "@wfkit/client";
import { runAlerts } from "../../cli/src/commands/alerts.js";
import { captureIo } from "../../../test/support/captured-io.js";
import { DAY_MS, fidelityServer, type FidelityServer } from "./fidelity-server.js";

let api: FidelityServer;
beforeEach(async () => {
  api = await fidelityServer();
  await api.createAlert({ name: "Digest", type: "weekly_digest", condition: "any", geography: "UK", email: "analyst@example.com", whatsapp_number: "+447700900123" });
  await api.advance(4 * DAY_MS);
});
afterEach(async () => {
  await api.stop();
});

const env = () => ({ WFKIT_SIGNALS_URL: api.server.signalsBaseUrl, WFKIT_ADMIN_TOKEN: api.server.service.adminToken, WFKIT_RETRY_BUDGET_MS: "200" });

describe("reading the notifications", () => {
  it("the client's listNotifications gives what GET /__admin/notifications gives", async () => {
    const expected = (await api.admin("GET", "/notifications")).body;
    expect(expected.count).toBe(1);
    expect(await listNotifications({ serviceUrl: api.server.baseUrl, adminToken: api.server.service.adminToken })).toEqual(expected);
  });

  it("the client refuses without the admin token as a SignalsApiError, never quoting the token; no service is a SignalsNetworkError", async () => {
    const wrong = "wfa_not-the-token-0123456789";
    const error = await listNotifications({ serviceUrl: api.server.baseUrl, adminToken: wrong }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SignalsApiError);
    expect((error as SignalsApiError).status).toBe(403);
    expect((error as SignalsApiError).message).not.toContain(wrong);
    const down = await listNotifications({ serviceUrl: "http://127.0.0.1:9", adminToken: wrong, retry: { budgetMs: 0 } }).catch((e: unknown) => e);
    expect(down).toBeInstanceOf(SignalsNetworkError);
  });

  it("wfkit alerts notifications lists each: when, the alert, type and condition, the value, the addresses, what was seen; --json is the service's answer", async () => {
    const [notification] = (await api.admin("GET", "/notifications")).body.notifications;
    const text = captureIo(process.cwd(), { env: env() });
    expect(await runAlerts(["notifications"], text)).toBe(0);
    expect(text.err()).toBe("");
    expect(text.out()).toBe(
      `2026-01-05T00:00:00.000Z  ${notification.alertId}  weekly_digest any  ${notification.value}  analyst@example.com, +447700900123\n    ${notification.detail}\n1 notification(s), recorded, not sent\n`,
    );
    const json = captureIo(process.cwd(), { env: env() });
    expect(await runAlerts(["notifications", "--json"], json)).toBe(0);
    expect(JSON.parse(json.out())).toEqual((await api.admin("GET", "/notifications")).body);
    // wfkit serve's baseUrl works as well as its signalsBaseUrl.
    const root = captureIo(process.cwd(), { env: { ...env(), WFKIT_SIGNALS_URL: api.server.baseUrl } });
    expect(await runAlerts(["notifications"], root)).toBe(0);
  });

  it("wfkit alerts notifications: a wrong admin token is exit 1 saying what to check; none is an error naming the variable", async () => {
    const wrong = captureIo(process.cwd(), { env: { ...env(), WFKIT_ADMIN_TOKEN: "wfa_wrong0123456789" } });
    expect(await runAlerts(["notifications"], wrong)).toBe(1);
    expect(wrong.err()).toMatch(/^wfkit: the admin surface refused \(403 on GET \/__admin\/notifications\): .* Check WFKIT_ADMIN_TOKEN or the --token-file file\.\n$/);
    expect(wrong.err()).not.toContain("wfa_wrong0123456789");
    await expect(runAlerts(["notifications"], captureIo(process.cwd(), { env: { ...env(), WFKIT_ADMIN_TOKEN: "" } }))).rejects.toThrow(/no admin token: set WFKIT_ADMIN_TOKEN/);
    await expect(runAlerts(["notifications", "extra"], captureIo(process.cwd(), { env: env() }))).rejects.toThrow(/takes no arguments/);
  });
});

describe("the anya refusal in the client's error kinds", () => {
  it("a 402 from /anya reads as kind plan_required with requiredFeature anya", async () => {
    const reply = await api.http("GET", "/anya");
    const error = new WorkflowsApiError(reply.status, reply.body, "GET /anya");
    expect([error.kind, error.code, error.requiredFeature, error.retryable]).toEqual(["plan_required", "plan_required", "anya", false]);
  });
});
