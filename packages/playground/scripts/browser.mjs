// What the playground's tests, its screenshots and the bench share: a headless Chromium and
// the page as `wfkit playground` serves it.
//
// The browser is the binary that @sparticuz/chromium ships in its npm package (so `npm ci` is
// all the set-up), or the one CHROMIUM_PATH names. When none starts, the caller fails: the
// tests never skip. The page comes from the built CLI (`npm run build`) run as a child
// process, so what is tested and measured is what users get, headers included.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sparticuz from "@sparticuz/chromium";
import { chromium } from "playwright-core";

/** No sandbox (containers lack the namespaces), and nothing the browser fetches on its own. */
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-default-apps"];

export async function launchChromium({ viewport = { width: 1280, height: 800 }, colorScheme = "light" } = {}) {
  const executablePath = process.env.CHROMIUM_PATH || (await sparticuz.executablePath());
  const profile = mkdtempSync(path.join(tmpdir(), "wfkit-playground-profile-"));
  try {
    const context = await chromium.launchPersistentContext(profile, { executablePath, headless: true, viewport, colorScheme, args: FLAGS });
    return {
      context,
      async close() {
        await context.close();
        rmSync(profile, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw new Error(`no headless Chromium could start (${executablePath}; set CHROMIUM_PATH to another): ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The repository's built CLI. */
export const cliBin = fileURLToPath(new URL("../../cli/bin/wfkit.cjs", import.meta.url));

/** `wfkit playground --port 0 --json` as a child process, once it prints its URL (30 s at most). */
export async function servePlayground(bin = cliBin) {
  const child = spawn(process.execPath, [bin, "playground", "--port", "0", "--json"], { cwd: path.dirname(bin), stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk.toString()));
  const exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  const url = await new Promise((resolve, reject) => {
    let stdout = "";
    const timer = setTimeout(() => reject(new Error(`wfkit playground printed no URL in 30 s; stderr: ${stderr}`)), 30_000);
    child.stdout.on("data", (chunk) => {
      stdout += chunk.toString();
      const newline = stdout.indexOf("\n");
      if (newline < 0) return;
      clearTimeout(timer);
      resolve(JSON.parse(stdout.slice(0, newline)).url);
    });
    void exited.then((code) => reject(new Error(`wfkit playground exited with ${code}; stderr: ${stderr}`)));
  });
  return {
    url,
    async stop() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}
