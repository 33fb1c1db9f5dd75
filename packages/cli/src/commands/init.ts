/**
 * `wfkit init [DIR]`: start a project, as `eslint --init` or `terraform init` would: a
 * `wfkit.config.json` with the settings commented, a first `.wf` workflow that passes
 * `wfkit check`, and the next steps (editor, pre-commit, CI, deploying).
 *
 * It never overwrites: each file is written to a temporary file beside its target and
 * linked into place, which fails when the target exists, so a file that is there (whatever
 * it is) is left as it was and named. The exit status is 1 when nothing could be written.
 * The new workflow is checked as `wfkit check` would check it, with the config that applies
 * to it (which may be one that was kept), and the verdict printed.
 */
import { randomBytes } from "node:crypto";
import { linkSync, lstatSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseCommandArgs, stringFlag } from "../args.js";
import { catalogueAt } from "../catalogue-file.js";
import { checkText } from "../check-file.js";
import { ConfigResolver } from "../config.js";
import { CliError, describeFsError, UsageError } from "../errors.js";
import type { Io } from "../io.js";
import { printable } from "../printable.js";
import { HOMEPAGE } from "../project.js";
import { plural } from "../report.js";
import { initSpec } from "./specs.js";

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export const CONFIG_TEXT = `{
  // wfkit's settings for the files in this directory and below it; every key is optional.
  // What each one does: ${HOMEPAGE}/blob/main/docs/cli.md#configuration-wfkitconfigjson
  //
  // The part catalogue to check against; without one, wfkit's built-in sample. Save the
  // service's own with \`wfkit catalogue pull -o catalogue.json\`, then name it here:
  // "catalogue": "catalogue.json",
  //
  // The Workflows API, for \`wfkit deploy\`, \`run\` and \`runs\` (or WFKIT_BASE_URL):
  // "baseUrl": "https://...",
  //
  // "off", "warning" or "error" for warning codes, such as "dead-end" or "unknown-field":
  "severity": {},
  // Files to leave out of \`wfkit check\` and \`wfkit fmt\` (globs relative to this file):
  "ignore": []
}
`;

/** A first workflow: profile one company on demand and deliver the report. */
export function workflowText(name: string): string {
  return `# A first workflow: profile one company on demand, pack the result into a report, deliver it.
# \`wfkit check\` checks it, \`wfkit graph ${name}.wf\` draws it; the language: ${HOMEPAGE}/blob/main/docs/language.md
workflow ${JSON.stringify(name)}

subject tesco = company "cmp_tesco" "Tesco PLC"

trigger start on_demand
part profile = terminal.profile@1 { job profile.company@1 subjects [tesco] }
part report = pack@1
destination inbox standalone

start -> profile -> report -> inbox
`;
}

/** Written, or why not: kept (something is there) or a failure to write. */
type Outcome = { written: true } | { written: false; line: (shown: string) => string };

const EXISTS: Outcome = { written: false, line: (shown) => `kept ${shown}: it exists (wfkit init never overwrites a file)` };
const failed = (error: unknown): Outcome => ({ written: false, line: (shown) => `could not write ${describeFsError(error, shown)}` });

/** Creates `target` with `text` unless something is there: written whole (temporary file, then a link), never over anything. */
function createNew(target: string, text: string): Outcome {
  try {
    lstatSync(target);
    return EXISTS;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") return failed(error);
  }
  const temporary = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    writeFileSync(temporary, text, { flag: "wx" });
    linkSync(temporary, target);
    return { written: true };
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EEXIST" ? EXISTS : failed(error);
  } finally {
    try {
      unlinkSync(temporary);
    } catch {
      // never made
    }
  }
}

export async function runInit(argv: readonly string[], io: Io): Promise<number> {
  const args = parseCommandArgs(initSpec, argv);
  if (args.positionals.length > 1) throw new UsageError(`give one directory at most (got ${args.positionals.length})`, "init");
  const name = stringFlag(args, "name") ?? "first";
  if (!NAME.test(name)) throw new UsageError(`--name must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit (got \`${name}\`)`, "init");
  const directory = path.resolve(io.cwd, args.positionals[0] ?? ".");
  const shown = (file: string) => printable(path.relative(io.cwd, file).split(path.sep).join("/") || ".");
  try {
    mkdirSync(path.join(directory, "flows"), { recursive: true });
  } catch (error) {
    throw new CliError(`cannot create ${describeFsError(error, `${shown(directory)}/flows`)}`);
  }

  const configPath = path.join(directory, "wfkit.config.json");
  const workflowPath = path.join(directory, "flows", `${name}.wf`);
  const files: [string, string, string][] = [
    [configPath, CONFIG_TEXT, "settings: catalogue, severities, ignores, the service"],
    [workflowPath, workflowText(name), "a first workflow"],
  ];
  let written = 0;
  for (const [file, text, what] of files) {
    const outcome = createNew(file, text);
    if (outcome.written) {
      written++;
      io.stdout.write(`created ${shown(file)}  (${what})\n`);
    } else io.stderr.write(`wfkit: ${outcome.line(shown(file))}\n`);
  }
  if (!written) {
    io.stderr.write(`wfkit: nothing was written (see above)\n`);
    return 1;
  }
  io.stdout.write(verdictOf(workflowPath, shown(workflowPath), io));
  io.stdout.write(nextSteps(`flows/${name}.wf`, shown(directory)));
  return 0;
}

/** `wfkit check`'s verdict on the workflow (new or kept), with the config that applies to it. */
function verdictOf(file: string, shown: string, io: Io): string {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return "";
  }
  try {
    const { cataloguePath, policy } = new ConfigResolver(io.cwd).fileProject(file, undefined);
    const report = checkText(shown, text, "wf", { catalogue: catalogueAt(cataloguePath, io.cwd), severity: policy.severity });
    if (!report.faults.length) return `${shown} passes \`wfkit check\`${report.estimate ? ` (estimate ${report.estimate.costMinorUnits} minor units per run)` : ""}\n`;
    return `${shown}: \`wfkit check\` reports ${plural(report.faults.length, "problem")} in it (with the config that applies to it): run \`wfkit check ${shown}\`\n`;
  } catch (error) {
    if (error instanceof CliError) return `${shown} was not checked: ${printable(error.message)}\n`;
    throw error;
  }
}

/** What to do next, with paths relative to DIR (the first step goes there). */
function nextSteps(workflow: string, directory: string): string {
  const go = directory === "." ? "" : `cd ${directory} && `;
  return `
Next steps:
  Check and draw:  ${go}wfkit check   ·   wfkit graph ${workflow}
  Editor:          the VS Code extension, or any LSP client running \`wfkit lsp --stdio\` (docs/install.md#vs-code)
  pre-commit:      in .pre-commit-config.yaml (docs/install.md#pre-commit):
                     repos:
                       - repo: https://github.com/wfkit/wfkit
                         rev: COMMIT
                         hooks: [{ id: wfkit-check }, { id: wfkit-fmt }]
  CI:              wfkit check --format github --max-warnings 0, and wfkit fmt --check;
                   the whole GitHub Actions job, annotations and code scanning: docs/install.md#github-actions
  Deploy:          set WFKIT_BASE_URL (or "baseUrl" in wfkit.config.json) and WFKIT_TOKEN, then
                   wfkit deploy ${workflow} --dry-run   (docs/lifecycle.md)
  Shell:           completion for bash, zsh or fish: \`wfkit completion --help\`
`;
}
