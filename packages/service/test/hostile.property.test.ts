/** Any body, any path segment, any method on any route: a JSON answer, never a 500 or a stack. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { API_ROUTES } from "../src/index.js";
import { harness } from "./helpers.js";
import { numRuns } from "../../../test/support/num-runs.js";

const segment = fc.oneof(fc.constantFrom("wf", "runs", "%00", "..", "templates", "__proto__", "constructor"), fc.string({ maxLength: 12 }).map(encodeURIComponent));
const body = fc.oneof(
  fc.json({ maxDepth: 3 }),
  fc.string({ maxLength: 200 }),
  fc.constantFrom("", "{", "[]", "null", '{"definition":{"nodes":{"length":1e9}}}', '{"hints":[{}]}', '{"__proto__":{"x":1}}'),
);

describe("hostile requests", () => {
  it("get a JSON error or a JSON answer from every route, never a 500", async () => {
    const { call, published, keys } = await harness();
    const wf = await published();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...API_ROUTES),
        fc.constantFrom("GET", "POST", "PUT", "DELETE"),
        fc.boolean(),
        segment,
        body,
        fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
        async (route, method, realWorkflow, param, rawBody, idempotencyKey) => {
          const path = route.path.replace(":wf", realWorkflow ? wf : param).replace(/:[a-z]+/g, param);
          const headers: Record<string, string> = idempotencyKey === undefined ? {} : { "Idempotency-Key": idempotencyKey.replace(/[^\x20-\x7e]/g, "") };
          const reply = await call(method, path, { credential: keys.write, ...(method === "GET" ? {} : { rawBody }), headers });
          expect(reply.status).toBeLessThan(500);
          expect(reply.body).toEqual(expect.any(Object));
          if (reply.status >= 400) {
            expect(reply.body.error).toEqual(expect.any(String));
            expect(reply.body.message).toEqual(expect.any(String));
            expect(JSON.stringify(reply.body)).not.toMatch(/\n\s+at /);
          }
        },
      ),
      { numRuns: numRuns(300) },
    );
  });
});
