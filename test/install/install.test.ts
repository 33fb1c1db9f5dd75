/**
 * Installing wfkit the ways users do, from a clone of this repository at its last commit
 * (uncommitted changes are not in it, as they would not be for a user):
 *
 * - the two ways pre-commit installs a `language: node` hook: up to 3.x, `npm pack` in its
 *   clone (the tarball's name read from standard output) and `npm install -g` of the tarball;
 *   from 4.x, `npm install -g --install-links git+file://<clone>`. Then the hooks of
 *   `.pre-commit-hooks.yaml` run from git's own pre-commit hook on the staged files: a commit
 *   of a faulty `.wf` is blocked, a clean one goes through;
 * - a real pre-commit (when one is installed, as Debian's 3.0.4 is here) running the hooks on
 *   a commit: a broken JSON definition and a broken alert body are refused, package.json is
 *   passed over. Its own environment install (`npm install` of the whole repository's
 *   development tools, which needs the registry) is replaced by the offline install above;
 * - the documented git install, `npm install -g "git+...#COMMIT::path:prebuilt"`: a real
 *   directory in the prefix, a `wfkit` that runs;
 * - the `wfkit` package's tarball (`npm pack -w packages/cli`) installed into an empty directory
 *   and run: `wfkit check`, and `wfkit lsp` answering an editor's `initialize`; it ships no
 *   source maps and no code cache, and stays under `TARBALL_BOUND` packed.
 *
 * Every install is offline against an unreachable registry, so nothing of wfkit can come from
 * anywhere but the repository. (pre-commit 3.x also runs `npm install` in its clone before
 * `npm pack`; the root package needs nothing from it, as its command is the committed
 * prebuilt/ build, so that step is left out here.) Packing the `wfkit` package builds its
 * bundle, which needs the build tools: the clone borrows this checkout's node_modules.
 */
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse as parseYaml } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LspTestClient } from "../support/lsp-client.js";
import { ensureCommands } from "../support/debian.js";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
/** An address where nothing listens: any request for a package fails at once. */
const NO_REGISTRY = "http://127.0.0.1:9";
/** The most the `wfkit` tarball may weigh packed (docs/install.md gives the measured size). */
const TARBALL_BOUND = 4 * 1024 * 1024;

let work: string;
let clone: string;

/** The environment of a fresh shell: none of the npm settings of the run that started vitest. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^npm_/i.test(key) && !key.startsWith("GIT_")) env[key] = value;
  return { ...env, ...extra };
}

function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = cleanEnv()): SpawnSyncReturns<string> {
  const result = spawnSync(command, args, { cwd, env, encoding: "utf8", timeout: 120_000 });
  if (result.error) throw result.error;
  return result;
}

function mustRun(command: string, args: readonly string[], cwd: string, env?: NodeJS.ProcessEnv): string {
  const result = run(command, args, cwd, env);
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} exited with ${result.status}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** npm offline, with its own empty cache and no registry to reach. */
function npm(args: readonly string[], cwd: string): string {
  return mustRun("npm", [...args, "--offline", `--registry=${NO_REGISTRY}`, `--cache=${path.join(work, "npm-cache")}`, "--no-audit", "--no-fund", "--no-update-notifier"], cwd);
}

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), "wfkit-install-"));
  clone = path.join(work, "clone");
  mustRun("git", ["clone", "--quiet", repoRoot, clone], work);
});

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

interface Hook {
  id: string;
  entry: string;
  language: string;
  files: string;
  args?: string[];
}

/** Valid and in canonical layout, so both hooks pass it; misspelling a part id breaks it. */
const CLEAN_WF = readFileSync(path.join(repoRoot, "packages/cli/test/fixtures/wf/brief.wf"), "utf8");
const BROKEN_WF = CLEAN_WF.replace("= pack@1", "= pakc@1");
/** A JSON definition with a misspelt part (a directory walk counts it by its keys). */
const BROKEN_DEFINITION = JSON.stringify({ schemaVersion: 1, nodes: [{ id: "a", kind: "part", partId: "pakc", partVersion: "1" }], edges: [] });
const CLEAN_DEFINITION = readFileSync(path.join(repoRoot, "examples/grocer-compare.json"), "utf8");
/** An alert body of a type the service does not know. */
const BROKEN_ALERT = JSON.stringify({ name: "x", type: "threshold" });

/** Git in `repo`, as a user with a name, and `bin` first on the PATH. */
function gitIn(repo: string, bin: string, extra: Record<string, string> = {}) {
  return (...args: string[]) =>
    run("git", ["-c", "user.name=Test", "-c", "user.email=test@example.com", "-c", "core.hooksPath=.git/hooks", ...args], repo, cleanEnv({ HOME: work, GIT_CONFIG_NOSYSTEM: "1", PATH: `${bin}${path.delimiter}${process.env.PATH}`, ...extra }));
}

const HOOK_INSTALLS = {
  /** pre-commit 3.x: `_, pkg, _ = cmd_output('npm', 'pack')`, then `npm install -g <pkg>`. */
  "npm pack, then npm install -g of the tarball (pre-commit 3)": (prefix: string) => {
    const packed = mustRun("npm", ["pack"], clone, cleanEnv({ npm_config_cache: path.join(work, "npm-cache") }));
    const tarball = path.join(clone, packed.trim());
    expect(existsSync(tarball), `npm pack's standard output must be the tarball's name alone, not:\n${packed}`).toBe(true);
    npm(["install", "--global", `--prefix=${prefix}`, tarball], work);
  },
  /** pre-commit 4.x: `npm install --install-links -g git+file://<clone>`. */
  "npm install -g from the git URL (pre-commit 4)": (prefix: string) => {
    npm(["install", "--global", "--install-links", `--prefix=${prefix}`, `git+file://${clone}`], work);
  },
};

describe.each(Object.entries(HOOK_INSTALLS))("pre-commit hooks, installed by %s", (label, install) => {
  const prefix = () => path.join(work, `hook-env-${Object.keys(HOOK_INSTALLS).indexOf(label)}`);

  beforeAll(() => install(prefix()));

  const hooks = (): Hook[] => parseYaml(readFileSync(path.join(repoRoot, ".pre-commit-hooks.yaml"), "utf8"));

  it("declares node hooks whose entries the installed package provides", () => {
    expect(hooks().map((hook) => [hook.id, hook.language])).toEqual([
      ["wfkit-check", "node"],
      ["wfkit-fmt", "node"],
    ]);
    for (const hook of hooks()) expect(existsSync(path.join(prefix(), "bin", hook.entry.split(" ")[0]!)), hook.entry).toBe(true);
  });

  /** A new repository whose git pre-commit hook does what pre-commit's does with these hooks. */
  const userRepo = (name: string) => {
    const repo = path.join(prefix(), name);
    mkdirSync(repo);
    const git = gitIn(repo, path.join(prefix(), "bin"));
    expect(git("init", "--quiet").status).toBe(0);
    // Git's pre-commit hook doing what pre-commit's does: each hook's entry and args on the
    // staged files its `files` pattern matches.
    const steps = hooks().map((hook) => {
      const command = [hook.entry, ...(hook.args ?? [])].join(" ");
      return `files=$(git diff --cached --name-only --diff-filter=ACMR | grep -E '${hook.files}' || true)\n[ -z "$files" ] || ${command} $files || status=1`;
    });
    const hookFile = path.join(repo, ".git", "hooks", "pre-commit");
    writeFileSync(hookFile, `#!/bin/sh\nstatus=0\n${steps.join("\n")}\nexit $status\n`);
    chmodSync(hookFile, 0o755);
    return { repo, git };
  };

  it("blocks a commit of a faulty .wf and lets a clean one through", () => {
    const { repo, git } = userRepo("user-repo");
    writeFileSync(path.join(repo, "flow.wf"), BROKEN_WF);
    git("add", "flow.wf");
    const blocked = git("commit", "--quiet", "-m", "broken");
    expect(blocked.status).toBe(1);
    expect(blocked.stdout + blocked.stderr).toContain("part-unknown");
    expect(git("rev-parse", "--verify", "--quiet", "HEAD").status).not.toBe(0);

    writeFileSync(path.join(repo, "flow.wf"), CLEAN_WF);
    git("add", "flow.wf");
    const passed = git("commit", "--quiet", "-m", "clean");
    expect(passed.status, passed.stdout + passed.stderr).toBe(0);
    expect(passed.stdout + passed.stderr).toContain("1 file checked: no problems");
    expect(git("log", "--format=%s").stdout).toBe("clean\n");
  });

  it("blocks a broken JSON definition and a broken alert body, and passes package.json over quietly", () => {
    const { repo, git } = userRepo("user-repo-json");
    writeFileSync(path.join(repo, "package.json"), JSON.stringify({ name: "x", version: "1.0.0" }));
    writeFileSync(path.join(repo, "def.json"), BROKEN_DEFINITION);
    writeFileSync(path.join(repo, "bad.alert.json"), BROKEN_ALERT);
    git("add", ".");
    const blocked = git("commit", "--quiet", "-m", "broken");
    // (git sends a hook's standard output to its standard error)
    const said = blocked.stdout + blocked.stderr;
    expect(blocked.status).toBe(1);
    expect(said).toMatch(/error\[part-unknown\].*\n  --> def\.json:/);
    expect(said).toMatch(/error\[alert-type-unknown\].*\n  --> bad\.alert\.json:/);
    expect(said).not.toContain("package.json");

    git("rm", "--quiet", "--cached", "bad.alert.json");
    writeFileSync(path.join(repo, "def.json"), CLEAN_DEFINITION);
    git("add", "def.json");
    const passed = git("commit", "--quiet", "-m", "clean");
    expect(passed.status, passed.stdout + passed.stderr).toBe(0);
    expect(passed.stdout + passed.stderr).toContain("1 file checked: no problems");

    writeFileSync(path.join(repo, "package.json"), JSON.stringify({ name: "x", version: "1.0.1" }));
    git("add", "package.json");
    const other = git("commit", "--quiet", "-m", "bump");
    expect([other.status, other.stdout, other.stderr]).toEqual([0, "", ""]);
  });
});

// A real `pre-commit` (Debian 12's, 3.0.4), installed by the test when missing: never skipped.
ensureCommands(["pre-commit"]);

describe("a real pre-commit run of the hooks", () => {
  let repo: string;
  let git: ReturnType<typeof gitIn>;
  const home = () => path.join(work, "pre-commit-home");

  beforeAll(() => {
    repo = path.join(work, "pre-commit-user");
    mkdirSync(repo);
    git = gitIn(repo, "/nonexistent", { PRE_COMMIT_HOME: home() });
    expect(git("init", "--quiet").status).toBe(0);
    const rev = mustRun("git", ["rev-parse", "HEAD"], clone).trim();
    writeFileSync(path.join(repo, ".pre-commit-config.yaml"), `repos:\n  - repo: ${clone}\n    rev: ${rev}\n    hooks:\n      - id: wfkit-check\n      - id: wfkit-fmt\n`);
    // pre-commit clones the repository into its store; its npm install of the clone (all of
    // the repository's development tools) cannot succeed offline, so it fails here...
    const env = { PRE_COMMIT_HOME: home(), npm_config_offline: "true", npm_config_registry: NO_REGISTRY, npm_config_cache: path.join(work, "npm-cache") };
    expect(run("pre-commit", ["install-hooks"], repo, cleanEnv(env)).status).not.toBe(0);
    const stored = readdirSync(home()).filter((name) => name.startsWith("repo"));
    expect(stored).toHaveLength(1);
    // ...and the environment is made as pre-commit 3 makes it after that step (npm pack in its
    // clone, npm install -g of the tarball into the environment), offline, and marked installed.
    const checkout = path.join(home(), stored[0]!);
    const environment = path.join(checkout, "node_env-system");
    const packed = mustRun("npm", ["pack"], checkout, cleanEnv({ npm_config_cache: path.join(work, "npm-cache") })).trim();
    npm(["install", "--global", `--prefix=${environment}`, path.join(checkout, packed)], work);
    writeFileSync(path.join(environment, ".install_state_v2"), "");
    expect(run("pre-commit", ["install"], repo, cleanEnv({ PRE_COMMIT_HOME: home() })).status).toBe(0);
  });

  it("refuses a commit of a broken JSON definition and a broken alert body, says why, and passes package.json over", () => {
    writeFileSync(path.join(repo, "package.json"), JSON.stringify({ name: "x", version: "1.0.0" }));
    writeFileSync(path.join(repo, "tsconfig.json"), JSON.stringify({ compilerOptions: {} }));
    writeFileSync(path.join(repo, "def.json"), BROKEN_DEFINITION);
    writeFileSync(path.join(repo, "bad.alert.json"), BROKEN_ALERT);
    writeFileSync(path.join(repo, "flow.wf"), CLEAN_WF);
    git("add", ".");
    const blocked = git("commit", "-m", "broken");
    const said = blocked.stdout + blocked.stderr;
    expect(blocked.status, said).toBe(1);
    expect(said).toMatch(/wfkit check\.+Failed/);
    expect(said).toMatch(/wfkit fmt\.+Passed/);
    expect(said).toMatch(/error\[part-unknown\].*\n  --> def\.json:/);
    expect(said).toMatch(/error\[alert-type-unknown\].*\n  --> bad\.alert\.json:/);
    expect(said).not.toMatch(/--> (package|tsconfig)\.json/);

    writeFileSync(path.join(repo, "def.json"), CLEAN_DEFINITION);
    git("rm", "--quiet", "--cached", "bad.alert.json");
    git("add", "def.json");
    const passed = git("commit", "-m", "clean");
    expect(passed.status, passed.stdout + passed.stderr).toBe(0);
    expect(passed.stdout + passed.stderr).toMatch(/wfkit check\.+Passed/);

    // A commit of package.json alone: the hook is handed it, and passes it over.
    writeFileSync(path.join(repo, "package.json"), JSON.stringify({ name: "x", version: "1.0.1" }));
    git("add", "package.json");
    const other = git("commit", "-m", "bump");
    expect(other.status, other.stdout + other.stderr).toBe(0);
    expect(other.stdout + other.stderr).toMatch(/wfkit check\.+Passed/);
  });
});

describe("the documented git install: npm install -g \"git+URL#COMMIT::path:prebuilt\"", () => {
  const prefix = () => path.join(work, "git-install");
  let commit: string;

  beforeAll(() => {
    commit = mustRun("git", ["rev-parse", "HEAD"], clone).trim();
    npm(["install", "--global", `--prefix=${prefix()}`, `git+file://${clone}#${commit}::path:prebuilt`], work);
  });

  it("installs a real directory (not a link into npm's cache) whose wfkit runs", () => {
    const installed = path.join(prefix(), "lib", "node_modules", "wfkit");
    expect(lstatSync(installed).isDirectory()).toBe(true);
    const command = path.join(prefix(), "bin", "wfkit");
    expect(realpathSync(command)).toBe(path.join(installed, "wfkit.cjs"));
    const cli = JSON.parse(readFileSync(path.join(repoRoot, "packages/cli/package.json"), "utf8"));
    expect(mustRun(command, ["--version"], work)).toBe(`${cli.version}\n`);
    const project = path.join(work, "git-install-project");
    mkdirSync(project);
    writeFileSync(path.join(project, "broken.wf"), BROKEN_WF);
    const checked = run(command, ["check", "broken.wf"], project);
    expect(checked.status).toBe(1);
    expect(checked.stdout).toContain("error[part-unknown]");
  });

  it("is the command README.md, docs/install.md and docs/cli.md give, wherever they give a git install", () => {
    for (const doc of ["README.md", "docs/install.md", "docs/cli.md"]) {
      const text = readFileSync(path.join(repoRoot, doc), "utf8");
      const gitInstalls = [...text.matchAll(/npm install (-g|-D|--global)\b[^\n`]*git\+[^\s`]+/g)].map((match) => match[0]);
      for (const line of gitInstalls) expect(line, `${doc}: ${line}`).toMatch(/#COMMIT::path:prebuilt"?$/);
    }
  });
});

describe("the wfkit package's tarball, installed into an empty directory", () => {
  let installed: string;

  let tarball: string;

  beforeAll(() => {
    symlinkSync(path.join(repoRoot, "node_modules"), path.join(clone, "node_modules"), "dir");
    const destination = path.join(work, "packs");
    mkdirSync(destination);
    // A code cache a run of the last build left beside it is never to be shipped.
    const bundle = path.join(clone, "packages/cli/dist/bundle");
    mkdirSync(bundle, { recursive: true });
    writeFileSync(path.join(bundle, "lsp-checker.cjs.cache"), "a code cache from an earlier run");
    // Its prepack script (the bundle) prints on standard output, so the tarball is found by listing.
    mustRun("npm", ["pack", "--workspace=packages/cli", `--pack-destination=${destination}`], clone, cleanEnv({ npm_config_cache: path.join(work, "npm-cache") }));
    const tarballs = readdirSync(destination);
    expect(tarballs).toEqual([expect.stringMatching(/^wfkit-.*\.tgz$/)]);
    tarball = path.join(destination, tarballs[0]!);
    installed = path.join(work, "cli-install");
    mkdirSync(installed);
    npm(["install", `--prefix=${installed}`, tarball], work);
  });

  it("ships what users run: the bundles, no source maps, no code cache, under the stated size", () => {
    const listed = mustRun("tar", ["-tzf", tarball], work).trim().split("\n").sort();
    expect(listed.filter((file) => /\.map$|\.cache$/.test(file))).toEqual([]);
    for (const file of ["package/bin/wfkit.cjs", "package/dist/bundle/wfkit.cjs", "package/dist/bundle/cli.cjs", "package/dist/bundle/lsp.mjs", "package/dist/bundle/lsp-checker.cjs", "package/dist/bundle/service.mjs", "package/dist/bundle/graph.mjs", "package/dist/bundle/graphvizlib.wasm", "package/dist/bundle/playground.mjs"])
      expect(listed).toContain(file);
    expect(statSync(tarball).size).toBeLessThan(TARBALL_BOUND);
  });

  it("carries the version this repository is at, which the root package repeats for pre-commit", () => {
    const cli = JSON.parse(readFileSync(path.join(repoRoot, "packages/cli/package.json"), "utf8"));
    const root = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8"));
    expect(root.version).toBe(cli.version);
    expect(mustRun(path.join(installed, "node_modules", ".bin", "wfkit"), ["--version"], installed)).toBe(`${cli.version}\n`);
  });

  it("runs wfkit check", () => {
    writeFileSync(path.join(installed, "broken.wf"), BROKEN_WF);
    writeFileSync(path.join(installed, "clean.wf"), CLEAN_WF);
    const wfkit = path.join(installed, "node_modules", ".bin", "wfkit");
    const broken = run(wfkit, ["check", "broken.wf", "--format", "github"], installed);
    expect(broken.stdout).toMatch(/^::error file=broken\.wf,line=9,.*title=wfkit part-unknown::/);
    expect(broken.status).toBe(1);
    expect(run(wfkit, ["check", "clean.wf"], installed).status).toBe(0);
  });

  it("draws with wfkit graph --format svg (Graphviz's WebAssembly is shipped beside its bundle)", () => {
    writeFileSync(path.join(installed, "clean.wf"), CLEAN_WF);
    const wfkit = path.join(installed, "node_modules", ".bin", "wfkit");
    const drawn = run(wfkit, ["graph", "clean.wf", "--format", "svg"], installed);
    expect(drawn.stderr).toBe("");
    expect(drawn.status).toBe(0);
    expect(drawn.stdout).toMatch(/<svg[\s\S]*<\/svg>\s*$/);
  });

  it("runs wfkit lsp: initialize, diagnostics, shutdown", async () => {
    const client = await LspTestClient.start({ command: { path: path.join(installed, "node_modules", "wfkit", "bin", "wfkit.cjs"), args: ["lsp"] } });
    expect(client.initializeResult.serverInfo?.name).toBe("wfkit-language-server");
    const uri = "file:///work/a.wf";
    await client.open(uri, BROKEN_WF);
    const { diagnostics } = await client.diagnostics(uri, 1);
    expect(diagnostics.map((d) => d.code)).toEqual(["part-unknown"]);
    expect(await client.stop()).toBe(0);
  });
});

describe("the committed build the root package runs (prebuilt/)", () => {
  const check = (...args: string[]) => run(process.execPath, [path.join(repoRoot, "scripts/prebuilt.mjs"), "--check", ...args], repoRoot);

  it("is what the sources build to", () => {
    const result = check();
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
  });

  it("is reported stale when it differs", () => {
    const copy = path.join(work, "prebuilt-copy");
    mkdirSync(copy);
    for (const name of readdirSync(path.join(repoRoot, "prebuilt"))) writeFileSync(path.join(copy, name), readFileSync(path.join(repoRoot, "prebuilt", name)));
    writeFileSync(path.join(copy, "lsp.mjs"), readFileSync(path.join(copy, "lsp.mjs"), "utf8") + "\n");
    const result = check("--dir", copy);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("prebuilt: lsp.mjs in");
    expect(result.stderr).not.toMatch(/wfkit\.mjs|service\.mjs/);
    expect(result.stderr).toContain("npm run update-prebuilt");
  });
});
