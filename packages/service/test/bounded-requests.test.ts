/**
 * What a request may cost the service: its body is read only up to the limit, however the
 * sender frames it, and JSON nested past the checker's limit is refused before anything reads
 * it recursively. Never a 500, whatever the route.
 */
import { request } from "node:http";
import { connect } from "node:net";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH } from "@wfkit/core";
import { ensureBuilt } from "../../../test/support/built-cli.js";
import { LIMITS } from "../src/policy.js";
import { example, harness } from "./helpers.js";
import { serve, type Served } from "../../../test/support/serve-process.js";

/** `{"a":{"a":...1...}}` nested `depth` levels, mixing arrays and objects when `arrays`. */
function nested(depth: number, arrays = false): string {
  let open = "";
  let close = "";
  for (let i = 0; i < depth; i++) {
    const array = arrays && i % 2 === 1;
    open += array ? "[" : '{"a":';
    close = (array ? "]" : "}") + close;
  }
  return open + "1" + close;
}

/** A JSON text of `body` with the string "@@" replaced by raw JSON text. */
const withRaw = (body: unknown, raw: string) => JSON.stringify(body).replace('"@@"', raw);

describe("JSON nested past the limit", () => {
  const depths = [MAX_JSON_DEPTH + 1, 5_000, 10_000, 100_000];
  it.each(depths)("is refused with a 400 naming the limit, on every route that reads JSON (%i levels)", async (depth) => {
    const { call, published } = await harness();
    const wf = await published();
    const created = await call("POST", "/api/v1/workflows", { body: { name: "deep" } });
    const definition = example("grocer-compare") as { nodes: Record<string, unknown>[] };
    definition.nodes[0]!.extra = "@@";
    const deep = nested(depth, depth % 2 === 0);
    const requests: [string, string, string][] = [
      ["POST", "/api/v1/workflows/catalogue/validate-definition", withRaw({ definition }, deep)],
      ["POST", `/api/v1/workflows/${created.body.workflow.id}/versions`, withRaw({ scope: { graph: definition } }, deep)],
      ["POST", "/api/v1/workflows/catalogue/resolve-subjects", withRaw({ hints: "@@" }, deep)],
      ["POST", `/api/v1/workflows/${wf}/run`, withRaw({ question: "@@" }, deep)],
      ["POST", "/api/v1/workflows", deep],
    ];
    for (const [method, path, rawBody] of requests) {
      const reply = await call(method, path, { rawBody });
      expect(reply.status, path).toBe(400);
      expect(reply.body.error).toBe("malformed_json");
      expect(reply.body.message).toMatch(/more than 2,000 levels deep/);
      expect(reply.body.code).toBe("json-syntax");
    }
  });

  it("answers a body nested just within the limit with the checker's verdict, echoing the value", async () => {
    const { call } = await harness();
    const definition = example("grocer-compare") as { nodes: Record<string, unknown>[] };
    definition.nodes[0]!.extra = "@@";
    // The body's own two levels ({definition: {nodes: [{...}]}}) count: the member nests the rest.
    const reply = await call("POST", "/api/v1/workflows/catalogue/validate-definition", { rawBody: withRaw({ definition }, nested(MAX_JSON_DEPTH - 4)) });
    expect(reply.status).toBe(200);
    expect(reply.body.ok).toBe(true);
    expect(JSON.stringify(reply.body.warnings)).toMatch(/extra/);
  });

  it("counts brackets inside strings as text, not nesting", async () => {
    const { call } = await harness();
    const definition = example("grocer-compare") as { nodes: Record<string, unknown>[] };
    definition.nodes[0]!.label = "[".repeat(MAX_JSON_DEPTH * 2);
    const reply = await call("POST", "/api/v1/workflows/catalogue/validate-definition", { body: { definition } });
    expect(reply.status).toBe(200);
  });
});

describe("request bodies over the limit, through the real process", () => {
  let served: Served;
  beforeAll(async () => {
    ensureBuilt();
    served = await serve([]);
  });
  afterAll(async () => {
    await served?.stop();
  });

  /** Peak resident memory of the server process so far, in bytes (Linux's VmHWM). */
  const peakRss = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${served.child.pid}/status`, "utf8"))![1]) * 1024;

  /**
   * Sends `total` bytes of JSON-looking text without a Content-Length (chunked), or with the
   * Content-Length `declared`, and resolves with the status the server answered.
   */
  function upload(path: string, total: number, declared?: number): Promise<number> {
    const url = new URL(served.baseUrl + path);
    return new Promise((resolve, reject) => {
      const credential: Record<string, string> = path.startsWith("/signals") ? { "X-Alert-Token": served.keys.alertToken! } : { Authorization: `Bearer ${served.keys.write}` };
      const headers: Record<string, string> = { ...credential, "Content-Type": "application/json" };
      if (declared !== undefined) headers["Content-Length"] = String(declared);
      const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers });
      const timer = setTimeout(() => req.destroy(new Error("no answer in 60 s")), 60_000);
      let status = 0;
      req.on("response", (response) => {
        status = response.statusCode ?? 0;
        response.resume();
        response.on("end", () => {
          clearTimeout(timer);
          resolve(status);
        });
      });
      req.on("error", (error) => {
        clearTimeout(timer);
        // The server may close the connection once it has answered and stopped reading.
        if (status) resolve(status);
        else reject(error);
      });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      const pump = () => {
        while (sent < total) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once("drain", pump);
        }
        req.end();
      };
      req.write('{"definition":');
      pump();
    });
  }

  it("answers 413 without holding more than the limit, chunked or declared, several at once", async () => {
    const before = peakRss();
    const uploadBytes = 192 * 1024 * 1024;
    const statuses = await Promise.all([
      upload("/api/v1/workflows/catalogue/validate-definition", uploadBytes),
      upload("/api/v1/workflows/catalogue/validate-definition", uploadBytes),
      upload("/signals/api/alerts", uploadBytes),
      upload(`/api/v1/workflows/catalogue/resolve-subjects`, uploadBytes, uploadBytes + 14),
    ]);
    for (const status of statuses) expect(status).toBe(413);
    // Four uploads of 192 MB each: read whole, they would take hundreds of megabytes.
    // Bounded, each costs at most the limit (8 MB) and its buffers.
    const grown = peakRss() - before;
    expect(grown).toBeLessThan(4 * LIMITS.bodyBytes + 64 * 1024 * 1024);
    // The service still answers.
    const alive = await fetch(served.baseUrl + "/api/v1/workflows/catalogue/parts", { headers: { Authorization: `Bearer ${served.keys.read}` } });
    expect(alive.status).toBe(200);
  });

  it("shrugs off senders that die half-way through their bodies: nothing logged as internal, and it goes on answering", async () => {
    const url = new URL(served.baseUrl);
    const half = (path: string, credential: Record<string, string>) =>
      new Promise<void>((resolve) => {
        const socket = connect(Number(url.port), url.hostname, () => {
          const head = [`POST ${path} HTTP/1.1`, `Host: ${url.host}`, "Content-Type: application/json", "Content-Length: 4000", ...Object.entries(credential).map(([name, value]) => `${name}: ${value}`), "", ""].join("\r\n");
          socket.write(head + '{"definition": {"schemaVersion": 1, "nodes": [');
          // Long enough for the service to be reading the body, then the sender is gone.
          setTimeout(() => socket.destroy(), 100);
        });
        socket.on("close", () => resolve());
        socket.on("error", () => undefined);
      });
    await Promise.all([
      half("/api/v1/workflows/catalogue/validate-definition", { Authorization: `Bearer ${served.keys.write}` }),
      half("/signals/api/alerts", { "X-Alert-Token": served.keys.alertToken! }),
      half("/api/v1/workflows/catalogue/resolve-subjects", { Authorization: `Bearer ${served.keys.write}` }),
    ]);
    const alive = await fetch(served.baseUrl + "/api/v1/workflows/catalogue/validate-definition", {
      method: "POST",
      headers: { Authorization: `Bearer ${served.keys.write}`, "Content-Type": "application/json" },
      body: JSON.stringify({ definition: example("grocer-compare") }),
    });
    expect(alive.status).toBe(200);
    expect(((await alive.json()) as { ok: boolean }).ok).toBe(true);
    expect(served.stderr()).not.toMatch(/internal error|\n\s+at /);
  });
});
