/**
 * `wfkit playground` from the built CLI, over loopback HTTP: it prints its URL, serves the
 * page's files with the page's Content Security Policy, and nothing else. (The page itself is
 * tested in a browser: packages/playground/test/playground.test.ts.)
 */
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { servePlayground, type ServedPlayground } from "../../playground/scripts/browser.mjs";
import { ensureBuilt, runCli } from "../../../test/support/built-cli.js";

let served: ServedPlayground;

beforeAll(async () => {
  ensureBuilt();
  served = await servePlayground();
}, 120_000);

afterAll(async () => {
  await served?.stop();
});

function fetchRaw(method: string, path: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, served.url), { method }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("wfkit playground", () => {
  it("prints a loopback URL as JSON and serves the page with its policy as a header", async () => {
    expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await fetchRaw("GET", "/");
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(page.body)?.[1];
    expect(meta).toContain("connect-src 'none'");
    expect(page.headers["content-security-policy"]).toBe(`${meta}; frame-ancestors 'none'`);
    expect(page.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("serves each file the page loads, with its type", async () => {
    const types: Record<string, string> = { "/playground.js": "text/javascript; charset=utf-8", "/worker.js": "text/javascript; charset=utf-8", "/playground.css": "text/css; charset=utf-8", "/favicon.svg": "image/svg+xml" };
    for (const [path, type] of Object.entries(types)) {
      const response = await fetchRaw("GET", path);
      expect({ path, status: response.status, type: response.headers["content-type"] }).toEqual({ path, status: 200, type });
      expect(Number(response.headers["content-length"])).toBe(Buffer.byteLength(response.body));
    }
    const head = await fetchRaw("HEAD", "/worker.js");
    expect(head.status).toBe(200);
    expect(head.body).toBe("");
  });

  it("answers nothing else: other paths are 404, other methods 405", async () => {
    for (const path of ["/index.html/", "/../package.json", "/%2e%2e/prebuilt/wfkit.cjs", "/constructor", "/__proto__"]) expect((await fetchRaw("GET", path)).status, path).toBe(404);
    const post = await fetchRaw("POST", "/");
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe("GET, HEAD");
  });

  it("refuses a busy port with exit code 2, and bad usage with the help hint", async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
    const port = (busy.address() as AddressInfo).port;
    try {
      const result = runCli(["playground", "--port", String(port)]);
      expect(result.status).toBe(2);
      expect(result.stderr).toBe(`wfkit: port ${port} on 127.0.0.1 is already in use; pick another with --port (0 takes a free one)\n`);
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
    const tooHigh = runCli(["playground", "--port", "70000"]);
    expect(tooHigh.status).toBe(2);
    expect(tooHigh.stderr).toBe("wfkit playground: --port must be at most 65535 (got 70000) (see `wfkit playground --help`)\n");
    const withPath = runCli(["playground", "flow.wf"]);
    expect(withPath.status).toBe(2);
    expect(withPath.stderr).toMatch(/^wfkit playground: playground takes no paths \(got `flow\.wf`\)/);
  });
});
