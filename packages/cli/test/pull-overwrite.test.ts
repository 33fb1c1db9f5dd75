/**
 * `catalogue pull -o FILE` and `templates pull NAME -o FILE`: what a server answers never
 * replaces a user's file by surprise. The built CLI against a real loopback server whose
 * answers each test chooses: a file with other content is kept unless --force (exit 1), and
 * an answer that is not what the route promises is refused before anything is written.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultCatalogue } from "@wfkit/core";
import { bin, ensureBuilt, type RunResult } from "../../../test/support/built-cli.js";
import { tempTree } from "../../../test/support/temp-tree.js";

const TEMPLATE_DEFINITION = JSON.parse(readFileSync(path.join(__dirname, "../../../examples/grocer-compare.json"), "utf8")) as unknown;
const GOOD_TEMPLATES = [{ id: "grocers", name: "Grocers", description: "Compare grocers", definition: TEMPLATE_DEFINITION }];

/** What the server answers next, by path (a string is sent as it is). */
const answers = new Map<string, unknown>();
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  ensureBuilt();
  server = createServer((request, response) => {
    const route = (request.url ?? "").split("?")[0]!.replace("/api/v1/workflows", "");
    const answer = answers.has(route) ? answers.get(route) : { error: "route_not_found", message: "no" };
    response.writeHead(answers.has(route) ? 200 : 404, { "Content-Type": "application/json" });
    response.end(typeof answer === "string" ? answer : JSON.stringify(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function wfkit(cwd: string, args: string[]): Promise<RunResult> {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", WFKIT_BASE_URL: baseUrl, WFKIT_TOKEN: "wk_test", WFKIT_RETRY_BUDGET_MS: "500" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  return new Promise((resolve) =>
    child.once("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    }),
  );
}

const USERS_CATALOGUE = '{ "catalogueVersion": "mine", "parts": [] }\n';

describe("catalogue pull -o FILE", () => {
  it("keeps a file with other content unless --force, and says how to replace it", async () => {
    answers.set("/catalogue/parts", defaultCatalogue);
    const cwd = tempTree({ "catalogue.json": USERS_CATALOGUE });
    const file = path.join(cwd, "catalogue.json");
    const before = statSync(file).mtimeMs;
    const kept = await wfkit(cwd, ["catalogue", "pull", "-o", "catalogue.json"]);
    expect(kept.status).toBe(1);
    expect(kept.stderr).toMatch(/catalogue\.json already exists with other content.*--force/);
    expect(readFileSync(file, "utf8")).toBe(USERS_CATALOGUE);
    expect(statSync(file).mtimeMs).toBe(before);

    const replaced = await wfkit(cwd, ["catalogue", "pull", "-o", "catalogue.json", "--force"]);
    expect(replaced.status, replaced.stderr).toBe(0);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(defaultCatalogue);
  });

  it("writes a new file, and leaves a file that already holds the same catalogue as it is", async () => {
    answers.set("/catalogue/parts", defaultCatalogue);
    const cwd = tempTree();
    const fresh = await wfkit(cwd, ["catalogue", "pull", "-o", "new.json"]);
    expect(fresh.status, fresh.stderr).toBe(0);
    const again = await wfkit(cwd, ["catalogue", "pull", "-o", "new.json"]);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/unchanged/);
  });

  // Answers of the right status and the wrong content: each is refused and nothing is written,
  // whether the file exists (even with --force) or not.
  const bogus: [string, unknown][] = [
    ["null", "null"],
    ["an empty body", ""],
    ["an array", "[]"],
    ["parts of the wrong type", { catalogueVersion: "x", parts: "none" }],
    ["a part without its fields", { catalogueVersion: "x", parts: [{ partId: 7 }] }],
    ["a part listed twice", { catalogueVersion: "x", parts: [defaultCatalogue.parts[0], defaultCatalogue.parts[0]] }],
    ["text that is not JSON", "<html>proxy error</html>"],
  ];
  for (const [what, answer] of bogus) {
    it(`refuses ${what} without writing`, async () => {
      answers.set("/catalogue/parts", answer);
      const cwd = tempTree({ "catalogue.json": USERS_CATALOGUE });
      const result = await wfkit(cwd, ["catalogue", "pull", "-o", "catalogue.json", "--force"]);
      expect(result.status).not.toBe(0);
      expect(result.stderr).toMatch(/^wfkit: /);
      expect(result.stderr).not.toMatch(/internal error|\n\s+at /);
      expect(readFileSync(path.join(cwd, "catalogue.json"), "utf8")).toBe(USERS_CATALOGUE);
      const none = await wfkit(cwd, ["catalogue", "pull", "-o", "absent.json"]);
      expect(none.status).not.toBe(0);
      expect(existsSync(path.join(cwd, "absent.json"))).toBe(false);
    });
  }
});

describe("templates pull NAME -o FILE", () => {
  it("keeps a .wf with other content unless --force", async () => {
    answers.set("/templates", GOOD_TEMPLATES);
    const mine = "workflow mine\n# my own work\n";
    const cwd = tempTree({ "flow.wf": mine });
    const kept = await wfkit(cwd, ["templates", "pull", "grocers", "-o", "flow.wf"]);
    expect(kept.status).toBe(1);
    expect(kept.stderr).toMatch(/flow\.wf already exists with other content.*--force/);
    expect(readFileSync(path.join(cwd, "flow.wf"), "utf8")).toBe(mine);
    const replaced = await wfkit(cwd, ["templates", "pull", "grocers", "-o", "flow.wf", "--force"]);
    expect(replaced.status, replaced.stderr).toBe(0);
    expect(readFileSync(path.join(cwd, "flow.wf"), "utf8")).toMatch(/workflow "grocers"/);
  });
});
