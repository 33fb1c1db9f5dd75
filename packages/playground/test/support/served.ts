/**
 * `wfkit playground --port 0 --json` run from the built CLI as a child process: the page the
 * tests open is the one users get, with its headers.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { bin, ensureBuilt } from "../../../cli/test/built-cli.js";

export interface ServedPlayground {
  url: string;
  stop(): Promise<void>;
}

export async function servePlayground(): Promise<ServedPlayground> {
  ensureBuilt();
  const child = spawn(process.execPath, [bin, "playground", "--port", "0", "--json"], { cwd: path.dirname(bin), stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = "";
    const timer = setTimeout(() => reject(new Error(`wfkit playground printed no URL in 30 s; stderr: ${stderr}`)), 30_000);
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = stdout.split("\n")[0];
      if (stdout.includes("\n") && line) {
        clearTimeout(timer);
        resolve((JSON.parse(line) as { url: string }).url);
      }
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
