/**
 * `wfkit`: dispatches to a command and turns every failure into an exit code.
 *
 * Exit codes: 0 success; 1 the input has faults (check, compile, estimate, fmt --check...);
 * 2 a usage error, an I/O error (missing file, unreadable or invalid catalogue or config), or
 * an internal error. A failure is one line on stderr, never a stack trace (set WFKIT_DEBUG=1
 * to see the stack of an internal error). Messages quote paths and names from the command
 * line and from files, so they are printed through `printable`: one line, no control codes.
 */
import { renderCommandHelp, type CommandSpec } from "./args.js";
import {
  alertsSpec,
  catalogueSpec,
  checkSpec,
  compileSpec,
  completionSpec,
  decompileSpec,
  deploySpec,
  estimateSpec,
  fmtSpec,
  graphSpec,
  initSpec,
  lspSpec,
  pinSpec,
  playgroundSpec,
  runSpec,
  runsSpec,
  serveSpec,
  signalsSpec,
  subjectsSpec,
  templatesSpec,
  viewsSpec,
} from "./commands/specs.js";
import { CliError, ReplaceRefused, UsageError } from "./errors.js";
import type { Io } from "./io.js";
import { printable } from "./printable.js";
import { HOMEPAGE, VERSION } from "./project.js";

type Run = (argv: readonly string[], io: Io) => Promise<number>;

interface Command {
  spec: CommandSpec;
  /** Imported only when the command runs: help and usage errors stay instant. */
  load(): Promise<Run>;
}

export const COMMANDS: readonly Command[] = [
  { spec: initSpec, load: async () => (await import("./commands/init.js")).runInit },
  { spec: checkSpec, load: async () => (await import("./commands/check.js")).runCheck },
  { spec: fmtSpec, load: async () => (await import("./commands/fmt.js")).runFmt },
  { spec: compileSpec, load: async () => (await import("./commands/compile.js")).runCompile },
  { spec: decompileSpec, load: async () => (await import("./commands/decompile.js")).runDecompile },
  { spec: estimateSpec, load: async () => (await import("./commands/estimate.js")).runEstimate },
  { spec: graphSpec, load: async () => (await import("./commands/graph.js")).runGraph },
  { spec: lspSpec, load: async () => (await import("./commands/lsp.js")).runLsp },
  { spec: serveSpec, load: async () => (await import("./commands/serve.js")).runServe },
  { spec: playgroundSpec, load: async () => (await import("./commands/playground.js")).runPlayground },
  { spec: catalogueSpec, load: async () => (await import("./commands/catalogue.js")).runCatalogue },
  { spec: subjectsSpec, load: async () => (await import("./commands/subjects.js")).runSubjects },
  { spec: pinSpec, load: async () => (await import("./commands/pin.js")).runPin },
  { spec: templatesSpec, load: async () => (await import("./commands/templates.js")).runTemplates },
  { spec: deploySpec, load: async () => (await import("./commands/deploy.js")).runDeploy },
  { spec: runSpec, load: async () => (await import("./commands/run.js")).runRun },
  { spec: runsSpec, load: async () => (await import("./commands/runs.js")).runRuns },
  { spec: signalsSpec, load: async () => (await import("./commands/signals.js")).runSignals },
  { spec: alertsSpec, load: async () => (await import("./commands/alerts.js")).runAlerts },
  { spec: viewsSpec, load: async () => (await import("./commands/views.js")).runViews },
  { spec: completionSpec, load: async () => (await import("./commands/completion.js")).runCompletion },
];

export const EXIT = { ok: 0, faults: 1, failure: 2 } as const;

/** The most further problems of one failure printed (a config with a thousand mistakes is not a thousand lines). */
const MAX_MORE_LINES = 20;

export function renderMainHelp(): string {
  const width = Math.max(...COMMANDS.map((command) => command.spec.name.length));
  return [
    "wfkit: check, format, compile and draw research workflow graphs offline; deploy and run them.",
    "",
    "Usage: wfkit COMMAND [options]",
    "",
    "Commands:",
    ...COMMANDS.map((command) => `  ${command.spec.name.padEnd(width)}  ${command.spec.summary}`),
    "",
    "Options:",
    "  -h, --help     Show help (also `wfkit COMMAND --help`).",
    "  -V, --version  Print wfkit's version.",
    "",
    "Examples:",
    "  wfkit check                       # every definition under the current directory",
    "  wfkit check --format github       # annotations in a GitHub Actions job",
    "  wfkit fmt --write                 # format every .wf file",
    "  wfkit compile flows/brief.wf -o flows/brief.workflow.json",
    "  wfkit deploy flows/brief.wf --publish && wfkit run brief --wait",
    "",
    `Exit status: 0 ok, 1 faults found or refused, 2 usage or I/O error. Docs: ${HOMEPAGE}/blob/main/docs/cli.md`,
    "",
  ].join("\n");
}

export async function main(argv: readonly string[], io: Io): Promise<number> {
  try {
    const [name, ...rest] = argv;
    if (name === undefined) {
      io.stderr.write(renderMainHelp());
      return EXIT.failure;
    }
    if (name === "--help" || name === "-h" || name === "help") {
      const topic = name === "help" ? rest[0] : undefined;
      const command = topic === undefined ? undefined : (findCommand(topic) ?? (await unknownCommand(topic)));
      io.stdout.write(command ? renderCommandHelp(command.spec) : renderMainHelp());
      return EXIT.ok;
    }
    if (name === "--version" || name === "-V" || name === "version") {
      io.stdout.write(`${VERSION}\n`);
      return EXIT.ok;
    }
    const command = findCommand(name) ?? (await unknownCommand(name));
    if (rest.includes("--help") || rest.includes("-h")) {
      io.stdout.write(renderCommandHelp(command.spec));
      return EXIT.ok;
    }
    const run = await command.load();
    return await run(rest, io);
  } catch (error) {
    return reportFailure(error, io);
  }
}

function findCommand(name: string): Command | undefined {
  return COMMANDS.find((candidate) => candidate.spec.name === name);
}

/**
 * The usage error for a word that is no command: `did you mean \`check\`?` when one is close
 * (core's Suggester, the one judge of typos, loaded only on this path), else the list.
 */
async function unknownCommand(name: string): Promise<never> {
  if (name.startsWith("-")) throw new UsageError(`unknown option ${name}; options come after the command, as in \`wfkit check ${name}\``);
  const names = COMMANDS.map((c) => c.spec.name);
  const { Suggester } = await import("@wfkit/core");
  const close = new Suggester().closest(name, names);
  if (close) throw new UsageError(`unknown command \`${name}\`; did you mean \`${close}\`?`);
  throw new UsageError(`unknown command \`${name}\` (commands: ${names.join(", ")})`);
}

export function reportFailure(error: unknown, io: Io): number {
  if (error instanceof UsageError) {
    const help = error.command ? `wfkit ${error.command} --help` : "wfkit --help";
    io.stderr.write(`wfkit${error.command ? ` ${error.command}` : ""}: ${printable(error.message)} (see \`${help}\`)\n`);
  } else if (error instanceof ReplaceRefused) {
    io.stderr.write(`wfkit: ${printable(error.message)}\n`);
    return EXIT.faults;
  } else if (error instanceof CliError) {
    io.stderr.write(`wfkit: ${printable(error.message)}\n`);
    // Each further problem on its own line (each made printable: no text from a file can start a line).
    const shown = error.more.slice(0, MAX_MORE_LINES);
    for (const line of shown) io.stderr.write(`wfkit: ${printable(line)}\n`);
    if (error.more.length > shown.length) io.stderr.write(`wfkit: ... and ${error.more.length - shown.length} more problems like these\n`);
  } else {
    const message = error instanceof Error ? error.message : String(error);
    io.stderr.write(`wfkit: internal error: ${printable(message.split("\n")[0]!)}. This is a bug in wfkit; please report it at ${HOMEPAGE}/issues with the command you ran (WFKIT_DEBUG=1 shows the stack).\n`);
    if (io.env.WFKIT_DEBUG && error instanceof Error && error.stack) io.stderr.write(error.stack + "\n");
  }
  return EXIT.failure;
}
