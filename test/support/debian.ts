/**
 * Debian packages a test needs (a shell to run completion scripts in, say), installed the way
 * the README's test command installs everything else: by the tests themselves, once, with
 * apt-get when running as root (as CI does). Elsewhere a missing one fails the test with the
 * command that installs it; a test is never skipped for want of it.
 */
import { spawnSync } from "node:child_process";

const hasCommand = (command: string) => spawnSync("sh", ["-c", `command -v ${command}`]).status === 0;

/** Makes sure each `command` exists, installing `packageOf[command]` (default: its own name) if not. */
export function ensureCommands(commands: readonly string[], packageOf: Record<string, string> = {}): void {
  const missing = commands.filter((command) => !hasCommand(command));
  if (!missing.length) return;
  const packages = missing.map((command) => packageOf[command] ?? command);
  const root = process.getuid?.() === 0;
  if (!root || !hasCommand("apt-get")) throw new Error(`this test needs ${missing.join(", ")}: install ${packages.join(" ")} (apt-get install ${packages.join(" ")}) or run the tests as root`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [["update", "-q"], ["install", "-y", "-q", "--no-install-recommends", ...packages]]) {
    const result = spawnSync("apt-get", args, { env, encoding: "utf8", timeout: 300_000 });
    if (result.status !== 0) throw new Error(`apt-get ${args.join(" ")} failed (${result.status ?? result.signal}):\n${result.stderr}`);
  }
  const still = commands.filter((command) => !hasCommand(command));
  if (still.length) throw new Error(`apt-get installed ${packages.join(" ")} but ${still.join(", ")} is still missing`);
}
