/**
 * "question: at most 1000 characters" (Workflows API, run start and Limits). The reference
 * does not say how characters are counted; wfkit serve counts Unicode code points, as a person
 * counts characters, not the UTF-16 code units of JavaScript's `length`: 600 emoji are 600
 * characters, not 1,200. Over HTTP against wfkit serve.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fidelityServer, type FidelityServer } from "./fidelity-server.js";
import { example } from "./helpers.js";

const V1 = "/api/v1/workflows";
let api: FidelityServer;
let workflow: string;
beforeAll(async () => {
  api = await fidelityServer();
  workflow = (await api.http("POST", V1, { body: { name: "question" } })).body.workflow.id;
  const version = (await api.http("POST", `${V1}/${workflow}/versions`, { body: { scope: { graph: example("grocer-compare") } } })).body.version.id;
  await api.http("POST", `${V1}/${workflow}/versions/${version}/publish`);
});
afterAll(async () => {
  await api.stop();
});

const start = (question: string) => api.http("POST", `${V1}/${workflow}/run`, { body: { question } });

describe("question length, counted in characters (code points)", () => {
  it.each([
    ["600 emoji (1,200 UTF-16 units)", "😀".repeat(600)],
    ["1,000 emoji", "🧺".repeat(1000)],
    ["1,000 letters", "a".repeat(1000)],
    ["1,000 characters mixing scripts and astral ideographs", "é𠀋".repeat(500)],
  ])("accepts %s", async (_, question) => {
    const reply = await start(question);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const run = (await api.http("GET", `${V1}/${workflow}/runs/${reply.body.runId}`)).body;
    expect(run.question).toBe(question);
  });

  it.each([
    ["1,001 emoji", "😀".repeat(1001), 1001],
    ["1,001 letters", "a".repeat(1001), 1001],
  ])("refuses %s, saying how it counted", async (_, question, count) => {
    const reply = await start(question);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({
      error: "invalid_request",
      message: `question must be at most 1000 characters (got ${count}, counted as Unicode code points); shorten the label`,
      pointer: "/question",
    });
  });
});
