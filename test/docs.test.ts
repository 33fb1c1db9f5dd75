// Generated docs must match the code they describe (`npm run docs` regenerates them).
import { describe, it } from "vitest";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

describe("generated docs", () => {
  it("docs/rules.md and docs/rules/*.md are current", () => {
    execFileSync("node", ["scripts/gen-rule-docs.mjs", "--check"], { cwd: root, stdio: "pipe" });
  });
});
