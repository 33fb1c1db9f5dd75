/**
 * What every command is called, takes and does: its flags, help text and examples. Kept
 * apart from the commands themselves so that `wfkit --help`, `--version` and usage errors
 * load none of the checking machinery (the commands are imported only when run).
 */
import type { CommandSpec } from "../args.js";
import { FORMATS } from "../formats/format.js";

export const checkSpec: CommandSpec = {
  name: "check",
  summary: "Check workflow definitions (.wf and .json) with the rules of the service's validate-definition.",
  usage: "[options] [PATH|GLOB|-]...",
  details: [
    "PATHs may be files, directories (walked, skipping node_modules and .git) or quoted globs.",
    "In a directory or glob, *.wf, *.workflow.json and .json files whose top-level keys look like",
    "a definition (schemaVersion, scope, or nodes and edges) are checked; a file named",
    "explicitly is always checked. With no PATH, the current directory is checked. `-` reads",
    "standard input.",
    "",
    "Exit status: 0 when there are no errors (and no more warnings than --max-warnings),",
    "1 when there are, 2 on a usage or I/O error (missing file, invalid catalogue or config).",
  ].join("\n"),
  flags: {
    format: { type: "string", short: "f", value: "FORMAT", description: `Output format: ${FORMATS.join(", ")} (default: pretty).` },
    catalogue: { type: "string", value: "FILE", description: "Part catalogue to check against (default: the config's, else the built-in SAMPLE)." },
    config: { type: "string", short: "c", value: "FILE", description: "Use this wfkit.config.json for every file instead of searching for one." },
    "max-warnings": { type: "string", value: "N", description: "Exit 1 when there are more than N warnings." },
    ignore: { type: "string", multiple: true, value: "GLOB", description: "Leave out files matching GLOB (relative to the working directory); repeatable. Adds to the config's `ignore`." },
    quiet: { type: "boolean", short: "q", description: "Report errors only (warnings still count for --max-warnings)." },
    "stdin-filename": { type: "string", value: "NAME", description: "The name of the source read from standard input (-): picks its language, config and how it is shown." },
  },
  examples: [
    { comment: "Check every definition under the current directory", command: "wfkit check" },
    { comment: "Check some files against your own catalogue", command: "wfkit check flows/*.wf --catalogue catalogue.json" },
    { comment: "Everything but the drafts", command: "wfkit check . --ignore 'drafts/**'" },
    { comment: "In CI: annotate the pull request, fail on any warning", command: "wfkit check --format github --max-warnings 0" },
    { comment: "For GitHub code scanning", command: "wfkit check --format sarif > wfkit.sarif" },
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
  ].join("\n"),
  flags: {
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
  summary: "Run the Workflows API locally (workflows, versions, runs with mocked research), for development and CI.",
  usage: "[options]",
  details: [
    "Serves every endpoint of the Workflows API under /api/v1, with its credentials, scopes, plans",
    "and errors, and runs published workflows against mocked parts. It listens on loopback unless",
    "--host says otherwise, and prints the base URL, where data is kept, the admin token and the",
    "API keys it seeded (shown once). Without --db everything is in memory and gone when it stops;",
    "with --db every acknowledged change is on disk. SIGINT or SIGTERM stops it cleanly.",
    "",
    "With --json the first line on stdout, printed once it accepts requests, is",
    '{"baseUrl": ..., "keys": {"read": ..., "write": ...}, "adminToken": ...}.',
    "Formats of the seed and mock files, the admin surface and every assumption: docs/service.md.",
  ].join("\n"),
  flags: {
    port: { type: "string", short: "p", value: "PORT", description: "Port to listen on (default 8787; 0 picks a free one)." },
    host: { type: "string", value: "HOST", description: "Address to listen on (default 127.0.0.1)." },
    db: { type: "string", value: "FILE", description: "Keep the data in this database file (created if absent) instead of in memory." },
    seed: { type: "string", value: "FILE", description: "Accounts, users and keys to create (JSON; default: one account on a higher plan, a read key and a write key)." },
    catalogue: { type: "string", value: "FILE", description: "Part catalogue (and subjects table) to serve (default: the built-in SAMPLE)." },
    mocks: { type: "string", value: "FILE", description: "What each part returns in a run, per test case (default: an output that satisfies what the part produces)." },
    json: { type: "boolean", description: "Print one JSON line with the base URL, keys and admin token once listening (for scripts)." },
  },
  examples: [
    { comment: "Start it with the default seed", command: "wfkit serve" },
    { comment: "In CI: a free port, keys for the test run", command: "wfkit serve --port 0 --json > serve.json &" },
    { comment: "Keep the data between runs", command: "wfkit serve --db .wfkit/service.db" },
    { comment: "Runs with your own mocked research", command: "wfkit serve --mocks test/mocks.json --seed test/seed.json" },
  ],
};
