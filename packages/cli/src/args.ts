/**
 * Command-line parsing on Node's own `util.parseArgs` (strict: an unknown flag is a usage
 * error, never silently ignored), plus the typed readers commands use for enum and integer
 * values. Each command describes its flags once, in a `CommandSpec`; the same description
 * drives parsing and `--help`, so the two cannot drift apart.
 */
import { parseArgs } from "node:util";
import { UsageError } from "./errors.js";

export interface FlagSpec {
  type: "string" | "boolean";
  short?: string;
  /** Shown in help after the flag: `--format FORMAT`. */
  value?: string;
  description: string;
  multiple?: boolean;
}

export interface CommandSpec {
  name: string;
  /** One line, shown in `wfkit --help`. */
  summary: string;
  /** The synopsis after `wfkit NAME`. */
  usage: string;
  /** Paragraphs shown after the synopsis. */
  details?: string;
  flags: Record<string, FlagSpec>;
  examples: { command: string; comment: string }[];
}

export interface ParsedArgs {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
}

/** Flags every command accepts. */
export const COMMON_FLAGS: Record<string, FlagSpec> = {
  help: { type: "boolean", short: "h", description: "Show this help and exit." },
};

export function parseCommandArgs(spec: CommandSpec, argv: readonly string[]): ParsedArgs {
  const options: Record<string, { type: "string" | "boolean"; short?: string; multiple?: boolean }> = {};
  for (const [name, flag] of Object.entries({ ...spec.flags, ...COMMON_FLAGS })) {
    options[name] = { type: flag.type, ...(flag.short ? { short: flag.short } : {}), ...(flag.multiple ? { multiple: true } : {}) };
  }
  try {
    const { values, positionals } = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
    return { values: values as ParsedArgs["values"], positionals };
  } catch (error) {
    throw new UsageError(describeParseArgsError(error), spec.name);
  }
}

/** parseArgs' messages are written for developers; restate the common ones for users. */
function describeParseArgsError(error: unknown): string {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  // Node quotes the option as '--name', '-n' or '-n, --name <value>': prefer the long name.
  const quoted = /'([^']+)'/.exec(message)?.[1] ?? "";
  const flag = /--[\w-]+/.exec(quoted)?.[0] ?? /-\w/.exec(quoted)?.[0];
  if (!flag) return message.split("\n")[0]!;
  switch (code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION":
      return `unknown option ${flag}`;
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE":
      if (message.includes("argument missing")) return `option ${flag} needs a value`;
      if (message.includes("ambiguous")) return `option ${flag} needs a value (write ${flag}=VALUE for a value that starts with -)`;
      return `option ${flag} does not take a value`;
    default:
      return message.split("\n")[0]!;
  }
}

export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const value = args.values[name];
  if (Array.isArray(value)) return value[value.length - 1];
  return typeof value === "string" ? value : undefined;
}

/** Every value of a repeatable flag, in order. */
export function stringsFlag(args: ParsedArgs, name: string): string[] {
  const value = args.values[name];
  return Array.isArray(value) ? value : typeof value === "string" ? [value] : [];
}

export function booleanFlag(args: ParsedArgs, name: string): boolean {
  return args.values[name] === true;
}

/** Reads a flag whose value must be one of `choices`; `fallback` when the flag is absent. */
export function choiceFlag<T extends string>(args: ParsedArgs, name: string, choices: readonly T[], fallback: T, command: string): T {
  const value = stringFlag(args, name);
  if (value === undefined) return fallback;
  if ((choices as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`--${name} must be one of ${choices.join(", ")} (got \`${value}\`)`, command);
}

/** Reads a flag whose value must be a whole number >= 0. */
export function countFlag(args: ParsedArgs, name: string, command: string): number | undefined {
  const value = stringFlag(args, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) throw new UsageError(`--${name} must be a whole number of 0 or more (got \`${value}\`)`, command);
  return Number(value);
}

/** The help text of one command, generated from its spec. */
export function renderCommandHelp(spec: CommandSpec): string {
  const lines = [`Usage: wfkit ${spec.name} ${spec.usage}`, "", spec.summary];
  if (spec.details) lines.push("", spec.details);
  const flags = Object.entries({ ...spec.flags, ...COMMON_FLAGS });
  lines.push("", "Options:");
  const labels = flags.map(([name, flag]) => `${flag.short ? `-${flag.short}, ` : "    "}--${name}${flag.value ? ` ${flag.value}` : ""}`);
  const width = Math.max(...labels.map((label) => label.length));
  flags.forEach(([, flag], i) => lines.push(`  ${labels[i]!.padEnd(width)}  ${flag.description}`));
  if (spec.examples.length) {
    lines.push("", "Examples:");
    for (const example of spec.examples) lines.push(`  # ${example.comment}`, `  ${example.command}`, "");
    lines.pop();
  }
  return lines.join("\n") + "\n";
}
