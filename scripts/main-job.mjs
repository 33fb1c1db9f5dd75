// `npm start`: checks every example with the embedded sample catalogue and prints each
// file's faults and estimate. Valid examples must pass; the broken ones under
// examples/broken/ are shown to demonstrate the diagnostics and are expected to fail.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

const root = new URL("..", import.meta.url);
const cli = new URL("packages/cli/bin/wfkit.cjs", root);

function wfkit(args, { expectFaults }) {
  try {
    execFileSync(process.execPath, [cli.pathname, ...args], { cwd: root, stdio: "inherit" });
    if (expectFaults) throw new Error(`wfkit ${args.join(" ")} found no faults in the broken examples`);
  } catch (error) {
    if (!expectFaults || error.status !== 1) throw error;
  }
}

if (!existsSync(cli)) {
  console.error("wfkit CLI is not built: run `npm run build`");
  process.exit(2);
}
console.log("== Valid examples (embedded sample catalogue) ==");
wfkit(["check", "examples", "--ignore", "examples/broken/**"], { expectFaults: false });
console.log("\n== Estimates ==");
wfkit(["estimate", "examples", "--ignore", "examples/broken/**"], { expectFaults: false });
console.log("\n== Broken examples: these fail on purpose, to show the diagnostics ==");
// examples/wfkit.config.json ignores them; this config ignores nothing.
wfkit(["check", "examples/broken", "--config", "examples/show-broken.config.json"], { expectFaults: true });
