// Builds everything `npm test` and `npm start` need, in dependency order:
// TypeScript project references (which type-checks every package's sources), then each
// workspace's own `bundle` script (esbuild bundles, the .vsix), when it has one.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

const root = new URL("..", import.meta.url);
function run(command, args) {
  const { status } = spawnSync(command, args, { cwd: root, stdio: "inherit" });
  if (status !== 0) {
    console.error(`build failed: ${command} ${args.join(" ")} exited with ${status}`);
    process.exit(status ?? 1);
  }
}

run("npx", ["tsc", "-b"]);
const { workspaces } = JSON.parse(readFileSync(new URL("package.json", root), "utf8"));
for (const workspace of workspaces) {
  const manifest = JSON.parse(readFileSync(new URL(`${workspace}/package.json`, root), "utf8"));
  if (manifest.scripts?.bundle) run("npm", ["run", "bundle", "--silent", "-w", workspace]);
}
