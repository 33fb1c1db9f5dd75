/**
 * A headless Chromium for the playground's tests and scripts: the binary that
 * @sparticuz/chromium ships in its npm package (so `npm ci` is all the set-up), or the one
 * CHROMIUM_PATH names. When none starts, the caller fails: these tests never skip.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sparticuz from "@sparticuz/chromium";
import { chromium, type BrowserContext } from "playwright-core";

/** No sandbox (containers lack the namespaces), and nothing the browser fetches on its own. */
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-default-apps"];

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchChromium(viewport = { width: 1280, height: 800 }): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH || (await sparticuz.executablePath());
  const profile = mkdtempSync(path.join(tmpdir(), "wfkit-playground-profile-"));
  try {
    const context = await chromium.launchPersistentContext(profile, { executablePath, headless: true, viewport, args: FLAGS });
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
