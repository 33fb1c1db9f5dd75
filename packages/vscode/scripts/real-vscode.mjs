#!/usr/bin/env node
// A real VS Code for the extension's end-to-end tests (test/vscode/real-vscode.test.ts): the
// `code-server` npm package, which bundles a full VS Code build (its web workbench and its
// Node extension host). No VS Code binary can be downloaded from Microsoft's servers here, and
// code-server's own install script fetches ripgrep and prebuilt native modules from GitHub,
// so `prepare` installs it without that script, from the npm registry and Debian only:
//
//   1. the Debian packages the native builds need (g++ make python3 libkrb5-dev ripgrep),
//      through apt-get when running as root; otherwise a missing one stops it with one line;
//   2. `npm pack code-server@4.100.3`, unpacked; `npm install --omit=dev --ignore-scripts` in
//      the package and in its lib/vscode;
//   3. the native modules built from source with npm's bundled node-gyp against this Node's
//      headers (@vscode/spdlog, native-watchdog, node-pty; kerberos and @vscode/deviceid are
//      optional), and `npm rebuild argon2 --build-from-source`;
//   4. lib/vscode's ripgrep pointed at Debian's `rg`, the symlinks code-server's postinstall
//      makes, and `npm install --omit=dev` in lib/vscode/extensions;
//   5. a smoke run (`--version`), then a completion marker.
//
// It is built in a directory of its own beside the cache and renamed into place when
// complete, so an interrupted build is never taken for a cache (it is removed on the next
// run), and two runs at once do not build into each other. The cache is
// $WFKIT_CODE_SERVER_CACHE, else ${XDG_CACHE_HOME:-~/.cache}/wfkit/code-server-4.100.3; a
// second run finds the marker and does nothing. The marker names the Node ABI the native
// modules were built for: another Node rebuilds.
//
// 4.100.3 (VS Code 1.100.3) is the newest code-server that declares Node 20 (4.101 and later
// want Node 22 or 24); it is pinned.
//
//   node packages/vscode/scripts/real-vscode.mjs prepare     # build the cache if needed; prints its path
//   node packages/vscode/scripts/real-vscode.mjs where       # the cache's path, exit 1 when not prepared
//
// The module also exports what the tests use: prepareCodeServer, preparedCodeServer and
// startCodeServer (one code-server in its own process group, stopped as a group).
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { homedir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const CODE_SERVER_VERSION = "4.100.3";
const MARKER = ".wfkit-prepared.json";
const DEBIAN_PACKAGES = ["g++", "make", "python3", "libkrb5-dev", "ripgrep"];
/** Native modules of lib/vscode, built with node-gyp; the optional ones may fail. */
const NATIVE_MODULES = [
  { name: "@vscode/spdlog", required: true },
  { name: "native-watchdog", required: true },
  { name: "node-pty", required: true },
  { name: "kerberos", required: false },
  { name: "@vscode/deviceid", required: false },
];

export function cacheDir() {
  if (process.env.WFKIT_CODE_SERVER_CACHE) return path.resolve(process.env.WFKIT_CODE_SERVER_CACHE);
  const base = process.env.XDG_CACHE_HOME || path.join(homedir(), ".cache");
  return path.join(base, "wfkit", `code-server-${CODE_SERVER_VERSION}`);
}

function markerContent() {
  return { version: CODE_SERVER_VERSION, nodeModules: process.versions.modules, platform: process.platform, arch: process.arch };
}

/** The prepared code-server, or undefined when the cache is absent, partial or built for another Node. */
export function preparedCodeServer(dir = cacheDir()) {
  try {
    const marker = JSON.parse(readFileSync(path.join(dir, MARKER), "utf8"));
    const expected = markerContent();
    if (Object.keys(expected).some((key) => marker[key] !== expected[key])) return undefined;
    const entry = path.join(dir, "out/node/entry.js");
    return existsSync(entry) ? { dir, entry } : undefined;
  } catch {
    return undefined;
  }
}

class PrepareError extends Error {}

function log(message) {
  process.stderr.write(`real-vscode: ${message}\n`);
}

/** The environment of the npm and node-gyp runs: the caller's npm settings left out (a test may run under `npm test -w ...`). */
function childEnv(extra = {}) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^npm_/i.test(key)) env[key] = value;
  return { ...env, npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false", ...extra };
}

/** The step running now, in a process group of its own: killed with its children when prepare is interrupted. */
let running;

function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], cwd: options.cwd, env: options.env ?? childEnv(), detached: true });
    running = child;
    let output = "";
    const keep = (chunk) => {
      output += chunk;
      if (output.length > 1_000_000) output = output.slice(-500_000);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.once("error", (error) => {
      running = undefined;
      reject(new PrepareError(`\`${command}\` could not start: ${error.message}`));
    });
    child.once("close", (code, signal) => {
      running = undefined;
      if (code === 0) return resolve({ output });
      const tail = output.trim().split("\n").slice(-30).join("\n");
      reject(new PrepareError(`\`${command} ${args.join(" ")}\` in ${options.cwd ?? process.cwd()} failed (${signal ?? `exit ${code}`}):\n${tail}`));
    });
  });
}

/** Stops the running step and everything it started (a compiler outlives a killed node-gyp otherwise). */
function killRunning() {
  if (!running?.pid) return;
  try {
    process.kill(-running.pid, "SIGKILL");
  } catch {}
}

function commandExists(name) {
  return spawnSync("sh", ["-c", `command -v "$1"`, "sh", name], { stdio: "ignore" }).status === 0;
}

function debianPackageInstalled(name) {
  const probe = { "g++": () => commandExists("g++"), make: () => commandExists("make"), python3: () => commandExists("python3"), ripgrep: () => commandExists("rg") }[name];
  if (probe) return probe();
  // libkrb5-dev: its headers (kerberos's build includes <gssapi/gssapi.h>).
  const query = spawnSync("dpkg-query", ["-W", "-f=${Status}", name], { encoding: "utf8" });
  if (query.status === 0) return query.stdout.includes("install ok installed");
  return existsSync("/usr/include/gssapi/gssapi.h");
}

async function ensureDebianPackages() {
  const missing = DEBIAN_PACKAGES.filter((name) => !debianPackageInstalled(name));
  if (!missing.length) return;
  const root = typeof process.getuid === "function" && process.getuid() === 0;
  if (!root || !commandExists("apt-get")) {
    throw new PrepareError(`missing Debian packages ${missing.join(" ")}: install them (apt-get install ${missing.join(" ")}) or run this as root`);
  }
  log(`installing Debian packages: ${missing.join(" ")}`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  await run("apt-get", ["update", "-q"], { env });
  await run("apt-get", ["install", "-y", "-q", "--no-install-recommends", ...missing], { env });
  const still = missing.filter((name) => !debianPackageInstalled(name));
  if (still.length) throw new PrepareError(`apt-get installed ${missing.join(" ")} but ${still.join(" ")} is still missing`);
}

function pidAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

/** Removes what an interrupted prepare left: a cache without its marker, staging directories of dead processes. */
function removeLeftovers(dir) {
  if (existsSync(dir) && !preparedCodeServer(dir)) {
    log(`removing an incomplete or outdated cache at ${dir}`);
    rmSync(dir, { recursive: true, force: true });
  }
  const parent = path.dirname(dir);
  if (!existsSync(parent)) return;
  const prefix = `${path.basename(dir)}.building-`;
  for (const name of readdirSync(parent)) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length));
    if (Number.isInteger(pid) && pid !== process.pid && pidAlive(pid)) continue;
    rmSync(path.join(parent, name), { recursive: true, force: true });
  }
}

function nodeGypScript() {
  const candidates = [
    path.resolve(path.dirname(process.execPath), "../lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js"),
    path.resolve(path.dirname(process.execPath), "node_modules/npm/node_modules/node-gyp/bin/node-gyp.js"),
  ];
  const npmPrefix = spawnSync("npm", ["prefix", "-g"], { encoding: "utf8", env: childEnv() });
  if (npmPrefix.status === 0) candidates.push(path.join(npmPrefix.stdout.trim(), "lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js"));
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) throw new PrepareError(`npm's bundled node-gyp was not found (looked in ${candidates.join(", ")})`);
  return found;
}

/** The prefix whose include/node holds this Node's headers (node-gyp would otherwise download them). */
function nodeHeadersPrefix() {
  const prefix = path.resolve(path.dirname(process.execPath), "..");
  if (!existsSync(path.join(prefix, "include/node/node.h"))) throw new PrepareError(`this Node's headers are missing (${prefix}/include/node/node.h); install Node with its headers (Debian: libnode-dev, or Node's own tarball)`);
  return prefix;
}

function symlink(target, at) {
  rmSync(at, { recursive: true, force: true });
  symlinkSync(target, at);
}

async function build(staging) {
  const times = {};
  const step = async (name, work) => {
    const started = Date.now();
    log(`${name}…`);
    await work();
    times[name] = Date.now() - started;
  };
  const pack = path.join(staging, ".pack");
  mkdirSync(pack, { recursive: true });
  await step(`npm pack code-server@${CODE_SERVER_VERSION}`, async () => {
    await run("npm", ["pack", `code-server@${CODE_SERVER_VERSION}`, "--silent"], { cwd: pack });
    const tarball = readdirSync(pack).find((name) => name.endsWith(".tgz"));
    if (!tarball) throw new PrepareError("npm pack wrote no tarball");
    await run("tar", ["xzf", tarball, "--strip-components=1", "-C", staging], { cwd: pack });
    rmSync(pack, { recursive: true, force: true });
  });
  const vscodeDir = path.join(staging, "lib/vscode");
  const npmInstall = ["install", "--omit=dev", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"];
  await step("npm install (code-server)", () => run("npm", npmInstall, { cwd: staging }));
  await step("npm install (lib/vscode)", () => run("npm", npmInstall, { cwd: vscodeDir }));
  const gyp = nodeGypScript();
  const nodedir = nodeHeadersPrefix();
  const gypEnv = childEnv({ npm_config_nodedir: nodedir, JOBS: "2" });
  for (const { name, required } of NATIVE_MODULES) {
    const moduleDir = path.join(vscodeDir, "node_modules", name);
    await step(`build ${name}`, async () => {
      if (!existsSync(path.join(moduleDir, "binding.gyp"))) throw new PrepareError(`${moduleDir}/binding.gyp is missing`);
      try {
        await run(process.execPath, [gyp, "rebuild", `--nodedir=${nodedir}`, "--jobs=2"], { cwd: moduleDir, env: gypEnv });
      } catch (error) {
        if (required) throw error;
        log(`optional ${name} did not build (VS Code runs without it): ${String(error.message).split("\n")[0]}`);
      }
    });
  }
  await step("build argon2", () => run("npm", ["rebuild", "argon2", "--build-from-source", "--loglevel=error"], { cwd: staging, env: gypEnv }));
  await step("links", () => {
    const rg = execFileSync("sh", ["-c", "command -v rg"], { encoding: "utf8" }).trim();
    const rgBin = path.join(vscodeDir, "node_modules/@vscode/ripgrep/bin");
    mkdirSync(rgBin, { recursive: true });
    symlink(rg, path.join(rgBin, "rg"));
    symlink("node_modules", path.join(vscodeDir, "node_modules.asar"));
    symlink("code-linux.sh", path.join(vscodeDir, "bin/remote-cli/code-server"));
    symlink("browser-linux.sh", path.join(vscodeDir, "bin/helpers/browser.sh"));
  });
  await step("npm install (lib/vscode/extensions)", () => run("npm", ["install", "--omit=dev", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: path.join(vscodeDir, "extensions") }));
  await step("smoke run", async () => {
    const home = path.join(staging, ".smoke-home");
    mkdirSync(home, { recursive: true });
    const { output } = await run(process.execPath, [path.join(staging, "out/node/entry.js"), "--version"], { cwd: staging, env: childEnv({ HOME: home }) });
    rmSync(home, { recursive: true, force: true });
    if (!output.includes(CODE_SERVER_VERSION)) throw new PrepareError(`code-server --version printed ${JSON.stringify(output.trim())}`);
    for (const name of ["@vscode/spdlog", "native-watchdog", "node-pty"]) {
      await run(process.execPath, ["-e", `require(${JSON.stringify(name)})`], { cwd: vscodeDir });
    }
  });
  return times;
}

/**
 * Makes sure the cache holds a complete code-server and resolves with it ({dir, entry}).
 * Idempotent: with the marker in place it resolves at once. Rejects with a readable message.
 * Interrupted (SIGINT, SIGTERM, SIGHUP), it stops the step running with everything that step
 * started and removes what it built.
 */
export async function prepareCodeServer({ dir = cacheDir() } = {}) {
  const ready = preparedCodeServer(dir);
  if (ready) return ready;
  const started = Date.now();
  const staging = `${dir}.building-${process.pid}`;
  const interrupted = (signal) => {
    killRunning();
    rmSync(staging, { recursive: true, force: true });
    log(`interrupted (${signal}); the partial build is removed`);
    process.exit(signal === "SIGINT" ? 130 : 143);
  };
  const signals = ["SIGINT", "SIGTERM", "SIGHUP"];
  for (const signal of signals) process.on(signal, interrupted);
  try {
    await ensureDebianPackages();
    removeLeftovers(dir);
    mkdirSync(path.dirname(dir), { recursive: true });
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    try {
      const times = await build(staging);
      writeFileSync(path.join(staging, MARKER), JSON.stringify({ ...markerContent(), preparedAt: new Date().toISOString(), stepsMs: times }, null, 2) + "\n");
      try {
        renameSync(staging, dir);
      } catch (error) {
        // Another prepare finished first: keep its cache.
        if (!preparedCodeServer(dir)) throw error;
      }
    } finally {
      killRunning();
      rmSync(staging, { recursive: true, force: true });
    }
  } catch (error) {
    if (error instanceof PrepareError) throw new Error(`real-vscode prepare: ${error.message}`);
    throw error;
  } finally {
    for (const signal of signals) process.off(signal, interrupted);
  }
  const prepared = preparedCodeServer(dir);
  if (!prepared) throw new Error(`real-vscode prepare: ${dir} is not complete after the build`);
  log(`code-server ${CODE_SERVER_VERSION} prepared in ${((Date.now() - started) / 1000).toFixed(0)} s at ${dir}`);
  return prepared;
}

/** A TCP port free on the loopback interface now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Installs `vsix` into a fresh extensions directory and serves `workspace` with code-server, in
 * its own process group (the server, its extension host and the language server end together
 * on stop()). Resolves once /healthz answers (60 s at most).
 */
export async function startCodeServer({ codeServer = preparedCodeServer(), vsix, workspace, home, settings = {} }) {
  if (!codeServer) throw new Error(`code-server is not prepared: run \`node packages/vscode/scripts/real-vscode.mjs prepare\``);
  mkdirSync(home, { recursive: true });
  const dirs = { userData: path.join(home, "user-data"), extensions: path.join(home, "extensions"), config: path.join(home, "config"), data: path.join(home, "data"), cache: path.join(home, "cache") };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  mkdirSync(path.join(dirs.userData, "User"), { recursive: true });
  // Nothing that calls out (telemetry, updates, experiments) or greets (the welcome page, tips).
  const quiet = {
    "telemetry.telemetryLevel": "off",
    "update.mode": "none",
    "extensions.autoCheckUpdates": false,
    "extensions.autoUpdate": false,
    "workbench.enableExperiments": false,
    "workbench.startupEditor": "none",
    "workbench.tips.enabled": false,
    "git.enabled": false,
  };
  writeFileSync(path.join(dirs.userData, "User/settings.json"), JSON.stringify({ ...quiet, ...settings }, null, 2));
  const closedPort = await freePort();
  const env = {
    ...childEnv(),
    HOME: home,
    XDG_CONFIG_HOME: dirs.config,
    XDG_DATA_HOME: dirs.data,
    XDG_CACHE_HOME: dirs.cache,
    // The marketplace at a closed loopback port: nothing is fetched from outside.
    EXTENSIONS_GALLERY: JSON.stringify({ serviceUrl: `http://127.0.0.1:${closedPort}/gallery`, itemUrl: `http://127.0.0.1:${closedPort}/item`, resourceUrlTemplate: `http://127.0.0.1:${closedPort}/resource` }),
  };
  for (const key of ["VSCODE_IPC_HOOK_CLI", "VSCODE_PID", "ELECTRON_RUN_AS_NODE"]) delete env[key];
  const common = ["--user-data-dir", dirs.userData, "--extensions-dir", dirs.extensions];
  await run(process.execPath, [codeServer.entry, ...common, "--install-extension", vsix], { env, cwd: home });
  const port = await freePort();
  const args = [codeServer.entry, ...common, "--auth", "none", "--bind-addr", `127.0.0.1:${port}`, "--disable-telemetry", "--disable-update-check", "--disable-workspace-trust", "--disable-getting-started-override", "--ignore-last-opened", workspace];
  // detached: a session and process group of its own, whose id is the child's pid.
  const child = spawn(process.execPath, args, { cwd: home, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let output = "";
  const keep = (chunk) => {
    output += chunk.toString();
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  let exitCode;
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve((exitCode = code ?? signal))));
  const stop = async () => {
    if (exitCode !== undefined) return;
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {}
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {}
    }, 5000);
    await exited;
    clearTimeout(timer);
    // What the group left behind (a language server that outlived its host) is killed too.
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {}
  };
  const url = `http://127.0.0.1:${port}/`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exitCode !== undefined) throw new Error(`code-server exited (${exitCode}) before answering:\n${output.slice(-4000)}`);
    try {
      const response = await fetch(`${url}healthz`, { signal: AbortSignal.timeout(2000) });
      if (response.ok) break;
    } catch {}
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`code-server did not answer /healthz in 60 s:\n${output.slice(-4000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { url, port, pid: child.pid, userDataDir: dirs.userData, extensionsDir: dirs.extensions, output: () => output, stop };
}

/**
 * Every log file of a code-server's user-data directory: the extension host's
 * (`logs/<date>/exthost<n>/remoteexthost.log`, with activation and `[error]` lines) and each
 * extension's output channels (`exthost<n>/<publisher.name>/<channel>.log`).
 */
export function logFiles(userDataDir) {
  const found = [];
  const walk = (dir, depth) => {
    if (depth > 5 || !existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (lstatSync(full).isDirectory()) walk(full, depth + 1);
      else if (name.endsWith(".log")) found.push(full);
    }
  };
  walk(path.join(userDataDir, "logs"), 0);
  return found.sort();
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const [command = "prepare"] = process.argv.slice(2);
  try {
    if (command === "prepare") {
      const { dir } = await prepareCodeServer();
      process.stdout.write(`${dir}\n`);
    } else if (command === "where") {
      const prepared = preparedCodeServer();
      if (!prepared) {
        process.stderr.write(`real-vscode: not prepared (${cacheDir()}); run \`node packages/vscode/scripts/real-vscode.mjs prepare\`\n`);
        process.exit(1);
      }
      process.stdout.write(`${prepared.dir}\n`);
    } else {
      process.stderr.write("usage: node packages/vscode/scripts/real-vscode.mjs prepare|where\n");
      process.exit(2);
    }
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
