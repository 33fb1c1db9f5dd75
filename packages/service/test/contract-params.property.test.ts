/**
 * The parameter rules of @wfkit/api's contract, as the client checks them and as the service
 * refuses by them: for any value of `geography` (on every endpoint that takes it), `severity`,
 * `periods`, `from` and `to`, the client refuses to send exactly what the service refuses.
 * The one difference is written in the contract: `periods` above the local service's own
 * bound (`serviceMaximum`, 52: its sample's year of weeks), which the reference does not set,
 * so the client sends it and wfkit serve alone refuses it.
 */
import { GEOGRAPHIES, SIGNALS_PARAMS } from "@wfkit/api";
import { SignalsApiError, SignalsClient, SignalsRequestError, type FetchLike } from "@wfkit/client";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SIGNALS_BASE_PATH } from "../src/index.js";
import { harness } from "./helpers.js";
import { numRuns } from "../../../test/support/num-runs.js";

type Verdict = "answered" | "refused";

async function setup() {
  const { app, service } = await harness();
  const jwt = service.signalsCredentials().jwt!;
  const inProcess: FetchLike = async (url, init) => app.request(url, init);
  const client = new SignalsClient({ baseUrl: `http://service.test${SIGNALS_BASE_PATH}`, jwt, fetch: inProcess, retry: { maxAttempts: 1 } });
  /** The service's verdict on a query sent as written. */
  const service_ = async (path: string, query: Record<string, string>): Promise<Verdict> => {
    const search = new URLSearchParams(query).toString();
    const response = await app.request(`${SIGNALS_BASE_PATH}${path}${search ? `?${search}` : ""}`, { headers: { Authorization: `Bearer ${jwt}` } });
    await response.arrayBuffer();
    return response.status < 400 ? "answered" : "refused";
  };
  /** The client's verdict: refused before sending, or sent and answered (a refusal by the service is the service's verdict, not the client's). */
  const client_ = async (send: (api: SignalsClient) => Promise<unknown>): Promise<Verdict | "sent, refused by the service"> => {
    try {
      await send(client);
      return "answered";
    } catch (error) {
      if (error instanceof SignalsRequestError) return "refused";
      if (error instanceof SignalsApiError) return "sent, refused by the service";
      throw error;
    }
  };
  return { service: service_, client: client_ };
}

const geographies = fc.oneof(fc.constantFrom(...GEOGRAPHIES, "uk", "us", "GB", "FR", "", " US", "UK "), fc.string({ maxLength: 3 }));
const dates = fc.oneof(
  fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2025-12-31T00:00:00Z"), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10)),
  fc.constantFrom("2024-02-29", "2023-02-29", "2024-13-01", "2024-00-10", "2024-1-1", "24-01-01", "2024-01-01T00:00:00Z", ""),
);

describe("the client refuses exactly what the service refuses", () => {
  it("geography, on each endpoint by its own rule", async () => {
    const { service, client } = await setup();
    const endpoints: [string, (api: SignalsClient, geography: string) => Promise<unknown>][] = [
      ["/api/signals", (api, g) => api.signals({ geography: g as "US" })],
      ["/api/cpix", (api, g) => api.cpix({ geography: g as "US" })],
      ["/api/history", (api, g) => api.history({ geography: g as "US" })],
      ["/api/briefing/latest", (api, g) => api.briefing({ geography: g as "US" })],
      ["/api/sectors/grocery/import-pressure", (api, g) => api.importPressure("grocery", { geography: g as "US" })],
      ["/api/census-marts", (api, g) => api.census({ geography: g as "US" })],
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...endpoints), geographies, async ([path, send], geography) => {
        const verdict = await client((api) => send(api, geography));
        expect(verdict, `${path} geography=${JSON.stringify(geography)}`).toBe(await service(path, { geography }));
      }),
      { numRuns: numRuns(150) },
    );
  });

  it("severity", async () => {
    const { service, client } = await setup();
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.constantFrom(...SIGNALS_PARAMS.severity.enumeration, "HIGH", "Low", "", "none"), fc.string({ maxLength: 6 })), async (severity) => {
        expect(await client((api) => api.signals({ severity: severity as "high" })), severity).toBe(await service("/api/signals", { severity }));
      }),
      { numRuns: numRuns(100) },
    );
  });

  it("periods, but for the local service's own bound above the reference's rule", async () => {
    const { service, client } = await setup();
    const rule = SIGNALS_PARAMS.periods;
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.integer({ min: -3, max: rule.serviceMaximum + 10 }), fc.double({ min: -2, max: 60, noNaN: true }), fc.constantFrom(1.5, 0, 1, rule.serviceMaximum, rule.serviceMaximum + 1, 1e21)), async (periods) => {
        const verdict = await client((api) => api.signals({ periods }));
        const expected = await service("/api/signals", { periods: String(periods) });
        if (Number.isSafeInteger(periods) && periods > rule.serviceMaximum) expect([verdict, expected], String(periods)).toEqual(["sent, refused by the service", "refused"]);
        else expect(verdict, String(periods)).toBe(expected);
      }),
      { numRuns: numRuns(150) },
    );
  });

  it("from and to (within the sample's dates, where the service's default `to` is not in play)", async () => {
    const { service, client } = await setup();
    await fc.assert(
      fc.asyncProperty(fc.option(dates, { nil: undefined }), fc.option(dates, { nil: undefined }), async (from, to) => {
        const query = { ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) };
        const verdict = await client((api) => api.history(query));
        expect(verdict, JSON.stringify(query)).toBe(await service("/api/history", query));
      }),
      { numRuns: numRuns(200) },
    );
  });
});
