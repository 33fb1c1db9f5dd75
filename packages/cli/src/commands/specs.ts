/**
 * What every command is called, takes and does: its flags, help text and examples. Kept
 * apart from the commands themselves so that `wfkit --help`, `--version` and usage errors
 * load none of the checking machinery (the commands are imported only when run).
 */
import type { CommandSpec } from "../args.js";
import type { FlagSpec } from "../args.js";
import { FORMATS } from "../formats/format.js";

/** The flags of every command that calls the Workflows API (remote.ts reads them). */
export const REMOTE_FLAGS: Record<string, FlagSpec> = {
  "base-url": { type: "string", value: "URL", description: "The Workflows API (default: WFKIT_BASE_URL, else `baseUrl` in wfkit.config.json)." },
  "token-file": { type: "string", value: "FILE", description: "Read the credential from FILE (default: the WFKIT_TOKEN environment variable)." },
  timeout: { type: "string", value: "SECONDS", description: "Give up on a request not fully answered in SECONDS (default: WFKIT_TIMEOUT, else 30); a retry gets its own." },
  format: { type: "string", short: "f", value: "FORMAT", description: "text (default) or json (one JSON document on stdout, errors included)." },
};

export const checkSpec: CommandSpec = {
  name: "check",
  summary: "Check workflow definitions (.wf and .json) with the rules of the service's validate-definition.",
  usage: "[options] [PATH|GLOB|-]...",
  details: [
    "PATHs may be files, directories (walked, skipping node_modules and .git) or quoted globs.",
    "In a directory or glob, *.wf, *.workflow.json and .json files whose top-level keys look like",
    "a definition (schemaVersion, scope, or nodes and edges) are checked; a file named",
    "explicitly is always checked (with --skip-other-json, a .json file only when a walk would",
    "check it). With no PATH, the current directory is checked. `-` reads standard input.",
    "When every file given is ignored, json and sarif still print their (empty) document.",
    "",
    "With --fix, each .wf file is first rewritten in place (atomically) with the fixes that are safe",
    "without a person: a did-you-mean whose word has exactly one candidate (a part or job id, a",
    "node or subject name), applied until none is left, never making text that parsed stop parsing",
    "or adding errors; then its layout, as `wfkit fmt` writes it (comments kept). The report is of",
    "the fixed text; stderr names each file changed and counts the problems fixed. JSON files are",
    "not changed. --fix-type problem or layout applies one kind only.",
    "",
    "With --remote, each definition is also sent to the service's validate-definition, and",
    "every place where the service's verdict differs from wfkit's is reported (a stale",
    "catalogue, or a bug); the credential and base URL are found as `wfkit deploy` finds them.",
    "",
    "Exit status: 0 when there are no errors (and no more warnings than --max-warnings),",
    "1 when there are (or, with --remote, when a verdict differs), 2 on a usage or I/O error",
    "(missing file, invalid catalogue or config, service unreachable).",
  ].join("\n"),
  flags: {
    fix: { type: "boolean", description: "Rewrite .wf files in place with the safe fixes (one-candidate did-you-means, then the layout), and report what remains." },
    "fix-type": { type: "string", value: "TYPES", description: "problem or layout (comma-separated; default: both): apply only these kinds of fix, with or without --fix." },
    remote: { type: "boolean", description: "Also ask the service's validate-definition and report every difference from wfkit's verdict." },
    "base-url": REMOTE_FLAGS["base-url"]!,
    "token-file": REMOTE_FLAGS["token-file"]!,
    timeout: REMOTE_FLAGS.timeout!,
    format: { type: "string", short: "f", value: "FORMAT", description: `Output format: ${FORMATS.join(", ")} (default: pretty).` },
    catalogue: { type: "string", value: "FILE", description: "Part catalogue to check against (default: the config's, else the built-in SAMPLE)." },
    config: { type: "string", short: "c", value: "FILE", description: "Use this wfkit.config.json for every file instead of searching for one." },
    "max-warnings": { type: "string", value: "N", description: "Exit 1 when there are more than N warnings." },
    ignore: { type: "string", multiple: true, value: "GLOB", description: "Leave out files matching GLOB (relative to the working directory); repeatable. Adds to the config's `ignore`." },
    "no-ignore": { type: "boolean", description: "Leave nothing out: no config's `ignore` applies (to check an ignored file on purpose)." },
    "skip-other-json": {
      type: "boolean",
      description: "Pass over a .json file named as a PATH unless a directory walk would check it (a definition, alert or view body): for hooks handed every staged .json file.",
    },
    quiet: { type: "boolean", short: "q", description: "Report errors only (warnings still count for --max-warnings)." },
    "stdin-filename": { type: "string", value: "NAME", description: "The name of the source read from standard input (-): picks its language, config and how it is shown." },
  },
  examples: [
    { comment: "Check every definition under the current directory", command: "wfkit check" },
    { comment: "Fix what is safe to fix (typos with one candidate, layout), then report the rest", command: "wfkit check --fix" },
    { comment: "Check some files against your own catalogue", command: "wfkit check flows/*.wf --catalogue catalogue.json" },
    { comment: "Everything but the drafts", command: "wfkit check . --ignore 'drafts/**'" },
    { comment: "In CI: annotate the pull request, fail on any warning", command: "wfkit check --format github --max-warnings 0" },
    { comment: "For GitHub code scanning", command: "wfkit check --format sarif > wfkit.sarif" },
    { comment: "Compare wfkit's verdict with the service's", command: "WFKIT_TOKEN=... wfkit check flows --remote" },
    { comment: "From an editor or hook, on unsaved text", command: "cat flows/brief.wf | wfkit check - --stdin-filename flows/brief.wf" },
  ],
};

export const compileSpec: CommandSpec = {
  name: "compile",
  summary: "Compile a .wf source to its JSON definition.",
  usage: "[options] FILE.wf|-",
  details: [
    "The source is checked first, exactly as `wfkit check` would (config, catalogue, suppressions).",
    "With errors, they are printed on stderr, nothing is written, and the exit status is 1: the",
    "service would refuse the definition. Warnings are printed on stderr and do not stop it.",
    "The JSON goes to stdout, or with -o to a file written atomically (left untouched if unchanged).",
    "",
    "--no-check compiles even when the checker finds errors (they are still printed): a local",
    "catalogue can be older than the service's, and the service's own verdict is the last word.",
  ].join("\n"),
  flags: {
    "no-check": { type: "boolean", description: "Write the JSON even when the checker finds errors (a local catalogue may be older than the service's)." },
    output: { type: "string", short: "o", value: "OUT.json", description: "Write the JSON to this regular file (through links; never the input); - is stdout." },
    catalogue: { type: "string", value: "FILE", description: "Part catalogue to check against." },
    config: { type: "string", short: "c", value: "FILE", description: "Use this wfkit.config.json instead of searching for one." },
    "stdin-filename": { type: "string", value: "NAME", description: "The name of the source read from standard input (-)." },
  },
  examples: [
    { comment: "Print the definition", command: "wfkit compile flows/brief.wf" },
    { comment: "Write it next to the source", command: "wfkit compile flows/brief.wf -o flows/brief.workflow.json" },
    { comment: "Send it to the service's validate-definition", command: "wfkit compile flows/brief.wf | jq '{definition: .}' | curl --json @- \"$BASE/api/v1/workflows/catalogue/validate-definition\"" },
  ],
};

export const decompileSpec: CommandSpec = {
  name: "decompile",
  summary: "Turn a JSON definition into .wf source.",
  usage: "[options] FILE.json|-",
  details: [
    "Only the JSON must be valid: a definition with rule faults is still turned into .wf, so that",
    "you can fix it there (`wfkit check` the result to see them). A JSON syntax error is printed",
    "with its position and the exit status is 1.",
  ].join("\n"),
  flags: {
    output: { type: "string", short: "o", value: "OUT.wf", description: "Write the source to this regular file (through links; never the input); - is stdout." },
    "stdin-filename": { type: "string", value: "NAME", description: "The name of the JSON read from standard input (-)." },
  },
  examples: [
    { comment: "Print a definition as .wf", command: "wfkit decompile flows/brief.workflow.json" },
    { comment: "Convert a template from the service's gallery", command: "curl -s \"$BASE/api/v1/workflows/templates\" | jq '.[0].definition' | wfkit decompile - -o brief.wf" },
  ],
};

export const fmtSpec: CommandSpec = {
  name: "fmt",
  summary: "Format .wf sources in the one canonical layout.",
  usage: "[options] [PATH|GLOB|-]...",
  details: [
    "Without --write or --check, prints each file formatted. Directories are walked for *.wf files;",
    "with no PATH, the current directory is; files a wfkit.config.json ignores are left out. A file",
    "that cannot be formatted (it does not parse, is not UTF-8 or cannot be written) is named and",
    "left alone. Files are written atomically, through symbolic links, and only when their text",
    "changes; read-only files are refused.",
    "",
    "Exit status: 0 on success; 1 with --check when a file would change; 2 when a file could not",
    "be formatted, or on a usage or I/O error.",
  ].join("\n"),
  flags: {
    write: { type: "boolean", short: "w", description: "Rewrite files in place, and list the ones that changed." },
    check: { type: "boolean", description: "Change nothing; list the files that are not formatted and exit 1 if there are any." },
    ignore: { type: "string", multiple: true, value: "GLOB", description: "Leave out files matching GLOB (relative to the working directory); repeatable. Adds to the config's `ignore`." },
    "stdin-filename": { type: "string", value: "NAME", description: "The name of the source read from standard input (-), for messages." },
  },
  examples: [
    { comment: "Format every .wf file in the repository", command: "wfkit fmt --write" },
    { comment: "In CI or a pre-commit hook: fail when something is not formatted", command: "wfkit fmt --check" },
    { comment: "From an editor: format unsaved text", command: "wfkit fmt - --stdin-filename flows/brief.wf < flows/brief.wf" },
  ],
};

export const estimateSpec: CommandSpec = {
  name: "estimate",
  summary: "Show what a run would reserve against the usage allowance, part by part.",
  usage: "[options] PATH|GLOB|-...",
  details: [
    "Costs are whole minor units of the allowance, from the catalogue (base cost plus a cost per",
    "subject). The figure is the one validate-definition returns and a run reserves. PATHs are",
    "found as `wfkit check` finds them (directories are walked). A definition with errors has no",
    "estimate: its faults are printed on stderr and the exit status is 1.",
  ].join("\n"),
  flags: {
    format: { type: "string", short: "f", value: "FORMAT", description: "table (default) or json: {version, files: [{path, ok, estimate?}]}." },
    catalogue: { type: "string", value: "FILE", description: "Part catalogue with the costs (default: the config's, else the built-in SAMPLE)." },
    config: { type: "string", short: "c", value: "FILE", description: "Use this wfkit.config.json for every file instead of searching for one." },
    ignore: { type: "string", multiple: true, value: "GLOB", description: "Leave out files matching GLOB (relative to the working directory); repeatable. Adds to the config's `ignore`." },
    "stdin-filename": { type: "string", value: "NAME", description: "The name of the source read from standard input (-)." },
  },
  examples: [
    { comment: "The cost table of one workflow", command: "wfkit estimate flows/brief.wf" },
    { comment: "Every workflow in a directory", command: "wfkit estimate flows" },
    { comment: "The total only, for a script", command: "wfkit estimate flows/brief.wf --format json | jq '.files[0].estimate.costMinorUnits'" },
  ],
};

export const graphSpec: CommandSpec = {
  name: "graph",
  summary: "Draw a workflow's graph as Mermaid, Graphviz DOT or SVG, for docs and reviews.",
  usage: "[options] FILE|-",
  details: [
    "A graph with rule faults is still drawn (a cycle or a dead end is easier to see than to read);",
    "a note on stderr says how many errors it has. A source that does not parse is reported and",
    "the exit status is 1. The svg format is laid out in-process (no Graphviz to install): parts",
    "show their version and estimated cost, edges what flows along them, and faulty nodes and edges",
    "are drawn in red (errors) or amber (warnings) with the fault as a tooltip.",
  ].join("\n"),
  flags: {
    format: { type: "string", short: "f", value: "FORMAT", description: "mermaid (default), dot or svg." },
    output: { type: "string", short: "o", value: "FILE", description: "Write the diagram to this regular file (through links; never the input); - is stdout." },
    catalogue: { type: "string", value: "FILE", description: "Part catalogue to check against." },
    config: { type: "string", short: "c", value: "FILE", description: "Use this wfkit.config.json instead of searching for one." },
    "stdin-filename": { type: "string", value: "NAME", description: "The name of the source read from standard input (-)." },
  },
  examples: [
    { comment: "A Mermaid diagram for a Markdown file or a pull request", command: "wfkit graph flows/brief.wf" },
    { comment: "An SVG picture with the faults drawn on it", command: "wfkit graph flows/brief.wf --format svg -o brief.svg" },
  ],
};

export const lspSpec: CommandSpec = {
  name: "lsp",
  summary: "Run the wfkit language server over stdio (for editors).",
  usage: "[--stdio]",
  details: "Speaks the Language Server Protocol on standard input and output until the editor closes it.\n`--stdio` is accepted (and is the only transport) because language clients pass it.",
  flags: {
    stdio: { type: "boolean", description: "Use standard input and output (the default and only transport)." },
  },
  examples: [{ comment: "Start the server (an editor's language client does this for you)", command: "wfkit lsp --stdio" }],
};

export const serveSpec: CommandSpec = {
  name: "serve",
  summary: "Run the Workflows API and the Consumer Signals API (sample data) locally, for development and CI.",
  usage: "[options]",
  details: [
    "Serves every endpoint of the Workflows API under /api/v1, with its credentials, scopes, plans",
    "and errors, and runs published workflows against mocked parts. Under /signals it serves the",
    "Consumer Signals API: data from a built-in SAMPLE data set, alerts and saved views, and the AI",
    "endpoints as stubs behind their shared rate limit. It listens on loopback unless --host says",
    "otherwise, and prints the base URLs, where data is kept, the admin token and the credentials",
    "it seeded (shown once). Without --db everything is in memory and gone when it stops; with --db",
    "every acknowledged change is on disk. SIGINT or SIGTERM stops it cleanly. One service at a time",
    "may use a --db file (FILE.lock names it); a journal damaged before its last entry is refused",
    "until --recover.",
    "",
    "With --json the first line on stdout, printed once it accepts requests, is",
    '{"baseUrl", "signalsBaseUrl", "keys": {"read", "write", "jwt", "alertToken"}, "adminToken"}.',
    "Formats of the seed and mock files, the admin surface and every assumption: docs/service.md.",
  ].join("\n"),
  flags: {
    port: { type: "string", short: "p", value: "PORT", description: "Port to listen on (default 8787; 0 picks a free one)." },
    host: { type: "string", value: "HOST", description: "Address to listen on (default 127.0.0.1)." },
    db: { type: "string", value: "FILE", description: "Keep the data in this database file (created if absent) instead of in memory." },
    recover: {
      type: "boolean",
      description: "With --db: start from a journal damaged before its last entry, keeping every intact entry; the journal is moved to FILE.journal.damaged-<time> and what was lost is printed.",
    },
    seed: { type: "string", value: "FILE", description: "Accounts, users, keys and alert tokens to create (JSON; default: one account on a higher plan, a read key, a write key and an alert token)." },
    catalogue: { type: "string", value: "FILE", description: "Part catalogue (and subjects table) to serve (default: the built-in SAMPLE)." },
    mocks: { type: "string", value: "FILE", description: "What each part returns in a run, per test case (default: an output that satisfies what the part produces)." },
    "signals-ai-limit": { type: "string", value: "MAX/WINDOW", description: "The Consumer Signals AI endpoints' shared limit per user (default 10/60s; also 3/2s, 100/500ms, 20/1m)." },
    json: { type: "boolean", description: "Print one JSON line with the base URLs, keys and admin token once listening (for scripts)." },
  },
  examples: [
    { comment: "Start it with the default seed", command: "wfkit serve" },
    { comment: "In CI: a free port, keys for the test run", command: "wfkit serve --port 0 --json > serve.json &" },
    { comment: "Keep the data between runs", command: "wfkit serve --db .wfkit/service.db" },
    { comment: "Start again after it refused a damaged journal", command: "wfkit serve --db .wfkit/service.db --recover" },
    { comment: "Runs with your own mocked research", command: "wfkit serve --mocks test/mocks.json --seed test/seed.json" },
  ],
};

export const playgroundSpec: CommandSpec = {
  name: "playground",
  summary: "Serve the playground on loopback: write a workflow in the browser, see its faults, graph and cost.",
  usage: "[options]",
  details: [
    "Serves the playground page on 127.0.0.1 and prints its address. The page runs the language",
    "server in the browser (a Web Worker): the text is checked there and sent nowhere, this",
    "server included, which only hands out the page's files. Once loaded, the page works offline.",
    "A share link carries the text in the address after `#`. SIGINT or SIGTERM stops it.",
    "",
    'With --json the first line on stdout, printed once it accepts requests, is {"url": ...}.',
    "The page, its examples and its share links: docs/playground.md.",
  ].join("\n"),
  flags: {
    port: { type: "string", short: "p", value: "PORT", description: "Port to listen on (default 8788; 0 picks a free one)." },
    json: { type: "boolean", description: "Print one JSON line with the page's URL once listening (for scripts)." },
  },
  examples: [
    { comment: "Open the playground", command: "wfkit playground" },
    { comment: "On a free port, for a script", command: "wfkit playground --port 0 --json" },
  ],
};

const REMOTE_DETAILS = [
  "The service is --base-url, else WFKIT_BASE_URL, else `baseUrl` in wfkit.config.json; the",
  "credential is WFKIT_TOKEN, or the file --token-file names (never a flag value). Every refusal",
  "is one line saying what happened and what to do. Docs: docs/lifecycle.md.",
  "",
  "Exit status: 0 ok, 1 refused by the service or the run failed, 2 usage error, service",
  "unreachable, or a file that could not be read or written.",
].join("\n");

export const deploySpec: CommandSpec = {
  name: "deploy",
  summary: "Check a workflow, then save it as a new version on the service (and publish it with --publish).",
  usage: "[options] FILE",
  details: [
    "FILE is checked first, exactly as `wfkit check` would; errors stop the deploy. The workflow",
    "is --workflow (a name or an id), else the .wf file's `workflow` name, else the file's name.",
    "A name is looked up in .wfkit/state.json, and created on the service when it is not there",
    "yet; its id is then saved there. A new version is saved only when FILE differs from what this",
    "project last deployed to the workflow (kept in .wfkit/state.json): an unchanged file says",
    "\"No changes\" and saves nothing, unless --force. It is published only with --publish.",
    "--dry-run prints the plan and changes nothing: the nodes and edges added (+), removed (-) and",
    "changed (~, each field before → after) since that deploy, and the service's estimate before",
    "and after, as `terraform plan` does.",
    "",
    REMOTE_DETAILS,
  ].join("\n"),
  flags: {
    workflow: { type: "string", short: "w", value: "NAME|ID", description: "The workflow to deploy to (default: the source's workflow name)." },
    publish: { type: "boolean", description: "Publish the saved version, so that runs use it." },
    "dry-run": { type: "boolean", description: "Print the plan (what changed since this project's last deploy) and the estimate; change nothing." },
    force: { type: "boolean", description: "Save a new version even when FILE has not changed since this project last deployed it." },
    catalogue: { type: "string", value: "FILE", description: "Part catalogue for the local check." },
    config: { type: "string", short: "c", value: "FILE", description: "Use this wfkit.config.json instead of searching for one." },
    ...REMOTE_FLAGS,
  },
  examples: [
    { comment: "See what changed since the last deploy, and what would happen", command: "wfkit deploy flows/brief.wf --dry-run" },
    { comment: "Save and publish", command: "wfkit deploy flows/brief.wf --publish" },
  ],
};

export const runSpec: CommandSpec = {
  name: "run",
  summary: "Start a run of a published workflow (it reserves usage), and with --wait follow it to the end.",
  usage: "[options] WORKFLOW",
  details: [
    "WORKFLOW is a name deployed from this project (.wfkit/state.json) or a workflow id. The",
    "Idempotency-Key (--idempotency-key, else a new one) is saved in .wfkit/state.json before the",
    "request is sent: when the command is interrupted or times out, running it again sends the",
    "same key, and the service answers with the run it already started instead of starting (and",
    "charging) a second one. The key is forgotten once the answer is recorded.",
    "",
    "With --wait, the run is followed until it ends or a hold gate holds it (live on a terminal,",
    "one line per change otherwise), then its outputs are printed. The exit status is then 0 when",
    "it succeeded, 1 when it failed, was cancelled or is held (deliver it with `wfkit runs deliver`).",
    "Ctrl-C stops the following, not the run: wfkit prints the run's id and `wfkit runs watch RUN`,",
    "which follows it again, and exits 130.",
    "",
    "--mock-case NAME picks a test case of a local `wfkit serve`'s mock file (the Wfkit-Mock-Case",
    "header; a real service ignores it).",
    "",
    REMOTE_DETAILS,
  ].join("\n"),
  flags: {
    question: { type: "string", short: "q", value: "TEXT", description: "A label for the run (at most 1000 characters; it never changes what the run does)." },
    wait: { type: "boolean", description: "Follow the run until it ends or is held, showing the state of each part (Ctrl-C stops following; the run goes on)." },
    "idempotency-key": { type: "string", value: "KEY", description: "Send this key (1 to 255 visible ASCII characters) instead of a new one." },
    "mock-case": { type: "string", value: "NAME", description: "wfkit serve: run with this test case of its --mocks file (sends Wfkit-Mock-Case: NAME)." },
    ...REMOTE_FLAGS,
  },
  examples: [
    { comment: "Start a run and follow it", command: "wfkit run grocer-compare --wait" },
    { comment: "Against wfkit serve --mocks examples/lifecycle-mocks.json: a result held for review", command: "wfkit run grocer-compare --wait --mock-case weak-compare" },
    { comment: "In a script, safe to repeat", command: "wfkit run grocer-compare --idempotency-key \"nightly-$(date +%F)\" --format json" },
  ],
};

export const runsSpec: CommandSpec = {
  name: "runs",
  summary: "List, show, watch, deliver or cancel runs.",
  usage: "list [--state open|terminal|all] [--workflow W] | show RUN | watch RUN | deliver RUN | cancel RUN",
  details: [
    "`list` shows the runs of every workflow you own (or of --workflow), newest first. `show`",
    "prints a run with the state and output of each node. `watch` follows a run until it ends or",
    "a hold gate holds it, exactly as `wfkit run --wait` does (the same exit status; Ctrl-C stops",
    "watching, exit 130, and the run goes on). `deliver` releases a run a hold gate is holding;",
    "`cancel` stops an open run (parts already finished stay charged). RUN is found among your",
    "runs; --workflow saves that lookup.",
    "",
    REMOTE_DETAILS,
  ].join("\n"),
  flags: {
    state: { type: "string", value: "STATE", description: "list: open, terminal or all (default)." },
    workflow: { type: "string", short: "w", value: "NAME|ID", description: "The workflow (a name from .wfkit/state.json, or an id)." },
    ...REMOTE_FLAGS,
  },
  examples: [
    { comment: "Runs still open", command: "wfkit runs list --state open" },
    { comment: "Follow a run again after Ctrl-C", command: "wfkit runs watch run_0123" },
    { comment: "Release a held run", command: "wfkit runs deliver run_0123" },
  ],
};

export const catalogueSpec: CommandSpec = {
  name: "catalogue",
  summary: "Save the service's part catalogue, so that offline checks judge against what it offers.",
  usage: "pull [-o FILE]",
  details: [
    "Writes the catalogue in the format `wfkit check --catalogue` and `catalogue` in",
    "wfkit.config.json read, atomically (stdout without -o).",
    "",
    REMOTE_DETAILS,
  ].join("\n"),
  flags: {
    output: { type: "string", short: "o", value: "FILE", description: "Write the catalogue to this regular file; - is stdout." },
    force: { type: "boolean", description: "Replace FILE even when it holds other content (without it, such a file is left untouched and the exit status is 1)." },
    ...REMOTE_FLAGS,
  },
  examples: [{ comment: "Keep the project's catalogue current", command: "wfkit catalogue pull -o catalogue.json" }],
};

export const subjectsSpec: CommandSpec = {
  name: "subjects",
  summary: "Resolve company hints (tickers or names) into canonical subjects, all in one call.",
  usage: "resolve HINT...",
  details: [
    "Prints each subject found, and each hint left unresolved with its reason: `ambiguous` (with",
    "its candidates), `unlisted` (held, but no listed equity to run against), `lookup_failed`",
    "(the resolver was unreachable; it says nothing about the company) or `not_found`.",
    "Exit status 1 when a hint is unresolved.",
    "",
    REMOTE_DETAILS,
  ].join("\n"),
  flags: { ...REMOTE_FLAGS },
  examples: [{ comment: "Two grocers", command: "wfkit subjects resolve TSCO \"J Sainsbury\"" }],
};

export const templatesSpec: CommandSpec = {
  name: "templates",
  summary: "List the service's gallery of ready-made workflows, or save one as .wf source.",
  usage: "list | pull NAME -o FILE.wf",
  details: ["`pull` takes a template's id or name and writes it decompiled to .wf, atomically.", "", REMOTE_DETAILS].join("\n"),
  flags: {
    output: { type: "string", short: "o", value: "FILE.wf", description: "pull: write the source to this regular file; - is stdout." },
    force: { type: "boolean", description: "pull: replace FILE.wf even when it holds other content (without it, such a file is left untouched and the exit status is 1)." },
    ...REMOTE_FLAGS,
  },
  examples: [
    { comment: "What is there", command: "wfkit templates list" },
    { comment: "Start from one", command: "wfkit templates pull grocer-compare -o flows/grocers.wf" },
  ],
};

export const pinSpec: CommandSpec = {
  name: "pin",
  summary: "Resolve the subjects of a .wf file in one call and rewrite them to canonical ids, in place.",
  usage: "[options] FILE.wf",
  details: [
    "Each `subject` declaration's hint (its id as written, or the `hint`, `label` or `canonicalId`",
    "of a JSON object) is sent to resolve-subjects in one call. A resolved subject's id is",
    "rewritten to the canonical one (a missing label is added; a JSON object becomes",
    "`company \"<id>\" \"<label>\"`); nothing else in the file changes, comments included. The file",
    "is written atomically. Hints left unresolved are listed with their reason: `ambiguous`",
    "(with candidates), `unlisted`, `lookup_failed` (says nothing about the company) or",
    "`not_found`; then the exit status is 1.",
    "",
    REMOTE_DETAILS,
  ].join("\n"),
  flags: {
    "dry-run": { type: "boolean", description: "Say what would be pinned; change nothing." },
    ...REMOTE_FLAGS,
  },
  examples: [{ comment: "Pin the subjects of a workflow", command: "wfkit pin flows/grocers.wf" }],
};

/** The flags of every command that calls the Consumer Signals API (signals-remote.ts reads them). */
const SIGNALS_REMOTE_FLAGS: Record<string, FlagSpec> = {
  "base-url": { type: "string", value: "URL", description: "The Consumer Signals API (default: the WFKIT_SIGNALS_URL environment variable)." },
  "token-file": { type: "string", value: "FILE", description: "Read the credential from FILE (default: WFKIT_SIGNALS_JWT for signals, WFKIT_ALERT_TOKEN for alerts and views)." },
  timeout: REMOTE_FLAGS.timeout!,
  json: { type: "boolean", description: "Print the service's answer as JSON on stdout (errors too); the same as --format json." },
  format: { type: "string", short: "f", value: "FORMAT", description: "text (default) or json." },
};

const SIGNALS_REMOTE_DETAILS = [
  "The service is --base-url, else WFKIT_SIGNALS_URL. The data endpoints take a JWT",
  "(WFKIT_SIGNALS_JWT), alerts and views an alert token (WFKIT_ALERT_TOKEN); either can be read",
  "from the file --token-file names instead (never a flag value). Docs: docs/signals.md.",
  "",
  "Exit status: 0 ok, 1 refused by the service (or a body with errors, not sent), 2 usage",
  "error (a parameter the service would refuse included), no address or credential, or the",
  "service not reached.",
].join("\n");

export const signalsSpec: CommandSpec = {
  name: "signals",
  summary: "Read the Consumer Signals API: current signals, the composite index, its history (charted), the weekly briefing.",
  usage: "list | index | history | briefing [options]",
  details: [
    "`list` shows the current signals (filter with --severity, --category, --periods); `index`",
    "the composite index with its drivers and their trends; `history` the index over time as a",
    "chart fitted to the terminal (--from and --to as YYYY-MM-DD); `briefing` the latest weekly",
    "briefing. --geography is US (default) or UK. Charts use block characters on a terminal with",
    "colour, plain ASCII otherwise (a pipe, NO_COLOR, TERM=dumb).",
    "",
    SIGNALS_REMOTE_DETAILS,
  ].join("\n"),
  flags: {
    geography: { type: "string", short: "g", value: "US|UK", description: "The geography (default US)." },
    severity: { type: "string", value: "LEVEL", description: "list: only signals of this severity (high, medium or low)." },
    category: { type: "string", value: "NAME", description: "list: only signals of this category (energy, housing, labour...)." },
    periods: { type: "string", value: "N", description: "list: recent periods to include (default 1)." },
    from: { type: "string", value: "YYYY-MM-DD", description: "history: the first day (default 2020-01-01)." },
    to: { type: "string", value: "YYYY-MM-DD", description: "history: the last day (default today)." },
    width: { type: "string", value: "COLUMNS", description: "Draw in this many columns (default: the terminal's width, else COLUMNS, else 80)." },
    ...SIGNALS_REMOTE_FLAGS,
  },
  examples: [
    { comment: "This week's high-severity signals in the UK", command: "wfkit signals list --geography UK --severity high" },
    { comment: "The index since the start of 2024, charted", command: "wfkit signals history --from 2024-01-01" },
    { comment: "The briefing for a script", command: "wfkit signals briefing --json | jq .headline" },
  ],
};

export const alertsSpec: CommandSpec = {
  name: "alerts",
  summary: "List your Consumer Signals alerts, create one from a checked *.alert.json body, or list what a local wfkit serve's alerts triggered.",
  usage: "list | create FILE | notifications",
  details: [
    "`list`: your alerts, oldest first: id, whether active, type, condition and threshold, name,",
    "the address(es) notified (with the alert token).",
    "",
    "`create`: FILE is checked first, exactly as `wfkit check` checks it (the same rules, config",
    "and output); with errors nothing is sent and the exit status is 1. Warnings are shown and do",
    "not stop it. FILE must be an alert body as wfkit recognises one: named *.alert.json, or",
    'with "$schema" naming alert.schema.json. `$schema` itself is not sent.',
    "",
    "`notifications`: the notifications a local `wfkit serve` recorded for its alerts instead of",
    "sending them (it judges each active alert at the end of every period on its clock), oldest",
    "first: when, the alert, its type and condition, the value, the address(es), what was seen.",
    "It reads wfkit serve's admin surface, at --base-url or WFKIT_SIGNALS_URL without its",
    "/signals path, with the admin token (WFKIT_ADMIN_TOKEN, or --token-file FILE).",
    "",
    SIGNALS_REMOTE_DETAILS,
  ].join("\n"),
  flags: {
    config: { type: "string", short: "c", value: "FILE", description: "Use this wfkit.config.json instead of searching for one." },
    ...SIGNALS_REMOTE_FLAGS,
  },
  examples: [
    { comment: "Your alerts", command: "WFKIT_ALERT_TOKEN=... wfkit alerts list" },
    { comment: "Check and create an alert", command: "WFKIT_ALERT_TOKEN=... wfkit alerts create alerts/cpix-above-60.alert.json" },
    { comment: "What a local wfkit serve's alerts triggered", command: "WFKIT_ADMIN_TOKEN=... wfkit alerts notifications --json" },
  ],
};

export const viewsSpec: CommandSpec = {
  name: "views",
  summary: "List, create (from a checked *.view.json body) or delete Consumer Signals saved views.",
  usage: "list | create FILE | delete ID",
  details: [
    "`create` checks FILE first, exactly as `wfkit check` does; with errors nothing is sent and",
    "the exit status is 1. FILE must be a saved-view body as wfkit recognises one: named",
    '*.view.json, or with "$schema" naming view.schema.json.',
    "",
    SIGNALS_REMOTE_DETAILS,
  ].join("\n"),
  flags: {
    config: { type: "string", short: "c", value: "FILE", description: "create: use this wfkit.config.json instead of searching for one." },
    ...SIGNALS_REMOTE_FLAGS,
  },
  examples: [
    { comment: "Your saved views", command: "wfkit views list" },
    { comment: "Save one", command: "wfkit views create views/uk-energy.view.json" },
    { comment: "Remove one", command: "wfkit views delete view_123" },
  ],
};

export const initSpec: CommandSpec = {
  name: "init",
  summary: "Start a project: a wfkit.config.json, a first .wf that passes check, and the next steps.",
  usage: "[options] [DIR]",
  details: [
    "Writes DIR/wfkit.config.json (every setting explained in comments) and DIR/flows/NAME.wf, a",
    "first workflow that passes `wfkit check`, then prints the next steps: the editor, pre-commit,",
    "CI and deploying. DIR is the current directory when not given, and is created if needed.",
    "",
    "It never overwrites: a file that exists is left as it is and named on stderr. Each file is",
    "written whole or not at all. Exit status: 0 when a file was written, 1 when none could be",
    "(all there already), 2 on a usage error or a directory that cannot be made.",
  ].join("\n"),
  flags: {
    name: { type: "string", value: "NAME", description: "The first workflow's name and file name (default: first)." },
  },
  examples: [
    { comment: "Start here", command: "wfkit init" },
    { comment: "In a new directory, naming the first workflow", command: "wfkit init research --name grocer-compare" },
  ],
};

export const completionSpec: CommandSpec = {
  name: "completion",
  summary: "Print a shell completion script for bash, zsh or fish.",
  usage: "bash | zsh | fish",
  details: [
    "Completes commands, their actions (`runs list`...), flags, the values of flags that take a",
    "choice (`--format`) or a file, and file arguments; generated from the same table that parses",
    "the arguments, so it is never behind the CLI it came with.",
    "",
    "bash:  source <(wfkit completion bash)          (in ~/.bashrc; bash 4 or later)",
    "zsh:   source <(wfkit completion zsh)           (in ~/.zshrc, after compinit)",
    "fish:  wfkit completion fish > ~/.config/fish/completions/wfkit.fish",
  ].join("\n"),
  flags: {},
  examples: [
    { comment: "bash, for this shell", command: "source <(wfkit completion bash)" },
    { comment: "fish, for every shell", command: "wfkit completion fish > ~/.config/fish/completions/wfkit.fish" },
  ],
};
