/**
 * `wfkit completion bash|zsh|fish`: a completion script, generated from the table that
 * parses the arguments (main.ts's commands, each with its `CommandSpec` from specs.ts, and
 * args.ts's common flags), so that a flag or command added there completes without anything
 * written here:
 *
 * - commands, from the command table, with their summaries;
 * - actions (`runs list|show|...`), the first word of each ` | `-separated alternative of a
 *   spec's usage that is a lower-case word;
 * - flags, long and short, and whether each takes a value;
 * - flag values: files for a value named FILE (`--catalogue FILE`, `-o OUT.json`),
 *   directories for DIR, choices where the spec's value or description lists them
 *   (`US|UK`; `pretty, json, sarif, github, rdjsonl`; `text (default) or json`); nothing
 *   for the rest (a URL, a number);
 * - arguments: files where the usage (of the action) names a FILE, PATH or DIR.
 *
 * bash needs bash-completion-free bash 4.0 or later; zsh's script is a `#compdef` function;
 * fish's is a list of `complete` lines.
 */
import { COMMON_FLAGS, parseCommandArgs, type CommandSpec, type FlagSpec } from "../args.js";
import { UsageError } from "../errors.js";
import type { Io } from "../io.js";
import { completionSpec } from "./specs.js";

export const SHELLS = ["bash", "zsh", "fish"] as const;
export type Shell = (typeof SHELLS)[number];

export type ValueKind = { kind: "files" } | { kind: "directories" } | { kind: "choices"; choices: string[] } | { kind: "any" };

export interface FlagModel {
  long: string;
  short?: string;
  takesValue: boolean;
  repeatable: boolean;
  value: ValueKind;
  description: string;
}

export interface ActionModel {
  name: string;
  /** What the action's arguments are (files, or nothing to offer). */
  argument: "files" | "directories" | "any";
}

export interface CommandModel {
  name: string;
  summary: string;
  actions: ActionModel[];
  /** The arguments of a command without actions. */
  argument: "files" | "directories" | "any";
  flags: FlagModel[];
}

/** The words a spec's value or description lists as the choices of a flag, or undefined. */
export function choicesOf(flag: FlagSpec): string[] | undefined {
  if (flag.value && /^[A-Za-z0-9-]+(\|[A-Za-z0-9-]+)+$/.test(flag.value) && flag.value !== "NAME|ID") return flag.value.split("|");
  const word = "[a-z][a-z0-9-]*(?: \\(default\\))?";
  const list = `(${word}(?:, ${word})*,? or ${word}|${word}(?:, ${word})+)`;
  const leading = new RegExp(`^(?:[A-Za-z ]+: )?${list}(?=$|[ .,;:(])`).exec(flag.description);
  const inParentheses = new RegExp(`\\(${list}\\)`).exec(flag.description);
  const found = leading?.[1] ?? inParentheses?.[1];
  if (!found) return undefined;
  return found
    .replaceAll(" (default)", "")
    .split(/,? or |, /)
    .map((choice) => choice.trim());
}

function valueKind(flag: FlagSpec): ValueKind {
  if (flag.type !== "string") return { kind: "any" };
  const choices = choicesOf(flag);
  if (choices) return { kind: "choices", choices };
  if (flag.value === "DIR") return { kind: "directories" };
  if (flag.value && /FILE|^OUT\b/.test(flag.value)) return { kind: "files" };
  return { kind: "any" };
}

function argumentKind(usage: string): "files" | "directories" | "any" {
  if (/\bDIR\b/.test(usage)) return "directories";
  return /\b(FILE|PATH)/.test(usage) ? "files" : "any";
}

export function commandModel(spec: CommandSpec): CommandModel {
  const alternatives = spec.usage.split(" | ").map((alternative) => alternative.trim());
  const actions = alternatives.flatMap((alternative) => {
    const [first = "", ...rest] = alternative.split(" ");
    return /^[a-z][a-z-]*$/.test(first) ? [{ name: first, argument: argumentKind(rest.join(" ")) }] : [];
  });
  const flags = Object.entries({ ...spec.flags, ...COMMON_FLAGS }).map(([long, flag]) => ({
    long,
    ...(flag.short ? { short: flag.short } : {}),
    takesValue: flag.type === "string",
    repeatable: flag.multiple === true,
    value: valueKind(flag),
    description: flag.description,
  }));
  return { name: spec.name, summary: spec.summary, actions, argument: actions.length ? "any" : argumentKind(spec.usage), flags };
}

/** One line of a description, for the shells that show them: the first sentence, at most 70 characters. */
function short(text: string): string {
  const sentence = text.split(/(?<=\.)\s|\n/)[0]!.replace(/\.$/, "");
  return sentence.length > 70 ? `${sentence.slice(0, 69)}…` : sentence;
}

/** A word list for bash's `compgen -W` and zsh's `(...)`: only words of plain characters. */
function words(list: readonly string[]): string {
  return list.filter((word) => /^[A-Za-z0-9@%+,./:=_-]+$/.test(word)).join(" ");
}

function bashFiles(kind: "files" | "directories" | "any"): string {
  if (kind === "files") return `mapfile -t COMPREPLY < <(compgen -f -- "$cur")`;
  if (kind === "directories") return `mapfile -t COMPREPLY < <(compgen -d -- "$cur")`;
  return "COMPREPLY=()";
}

export function bashScript(commands: readonly CommandModel[]): string {
  const cases = commands.map((command) => {
    const valueFlags = command.flags.filter((flag) => flag.takesValue).flatMap((flag) => [`--${flag.long}`, ...(flag.short ? [`-${flag.short}`] : [])]);
    const valueCases = command.flags
      .filter((flag) => flag.takesValue)
      .map((flag) => {
        const names = [`--${flag.long}`, ...(flag.short ? [`-${flag.short}`] : [])].join("|");
        const reply = flag.value.kind === "choices" ? `mapfile -t COMPREPLY < <(compgen -W "${words(flag.value.choices)}" -- "$cur")` : flag.value.kind === "files" ? bashFiles("files") : flag.value.kind === "directories" ? bashFiles("directories") : "COMPREPLY=()";
        return `        ${names}) ${reply}; return ;;`;
      });
    const flagWords = words(command.flags.flatMap((flag) => [`--${flag.long}`, ...(flag.short ? [`-${flag.short}`] : [])]));
    const positional = command.actions.length
      ? [
          `      if (( positionals == 0 )); then mapfile -t COMPREPLY < <(compgen -W "${words(command.actions.map((action) => action.name))}" -- "$cur"); return; fi`,
          `      case "$action" in`,
          ...command.actions.map((action) => `        ${action.name}) ${bashFiles(action.argument)} ;;`),
          `        *) COMPREPLY=() ;;`,
          `      esac`,
        ]
      : [`      ${bashFiles(command.argument)}`];
    return [
      `    ${command.name})`,
      `      valueflags="${words(valueFlags)}"`,
      `      case "$prev" in`,
      ...valueCases,
      `      esac`,
      `      _wfkit_positionals`,
      `      if [[ "$cur" == -* ]]; then mapfile -t COMPREPLY < <(compgen -W "${flagWords}" -- "$cur"); return; fi`,
      ...positional,
      `      ;;`,
    ].join("\n");
  });
  return `# wfkit completion for bash (bash 4 or later), generated by \`wfkit completion bash\`.
# Load it in this shell:           source <(wfkit completion bash)
# or for every shell, save it:     wfkit completion bash > ~/.local/share/bash-completion/completions/wfkit

# How many arguments (not flags, not flag values) come before the word being completed, and the first of them.
_wfkit_positionals() {
  positionals=0
  action=""
  local j word
  for (( j = 2; j < COMP_CWORD; j++ )); do
    word="\${COMP_WORDS[j]}"
    case "$word" in
      --*=*) ;;
      -*) case " $valueflags " in *" $word "*) (( j++ )) ;; esac ;;
      *) (( positionals == 0 )) && action="$word"; (( positionals++ )) ;;
    esac
  done
}

_wfkit() {
  local cur prev valueflags positionals action
  COMPREPLY=()
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev=""
  (( COMP_CWORD > 0 )) && prev="\${COMP_WORDS[COMP_CWORD-1]}"
  if (( COMP_CWORD == 1 )); then
    mapfile -t COMPREPLY < <(compgen -W "${words(commands.map((command) => command.name))} help --help --version" -- "$cur")
    return
  fi
  case "\${COMP_WORDS[1]}" in
${cases.join("\n")}
    help)
      (( COMP_CWORD == 2 )) && mapfile -t COMPREPLY < <(compgen -W "${words(commands.map((command) => command.name))}" -- "$cur")
      ;;
  esac
}

complete -F _wfkit wfkit
`;
}

/** Text inside single quotes in zsh and in an `_arguments` description: no quote, no brackets, no colon. */
function zshText(text: string): string {
  return short(text).replaceAll("'", "’").replaceAll("[", "(").replaceAll("]", ")").replaceAll(":", " -").replaceAll("\\", "/");
}

function zshFiles(kind: "files" | "directories" | "any"): string {
  return kind === "files" ? "_files" : kind === "directories" ? "_files -/" : " ";
}

export function zshScript(commands: readonly CommandModel[]): string {
  const cases = commands.map((command) => {
    const specs = command.flags.map((flag) => {
      const description = `[${zshText(flag.description)}]`;
      const value =
        !flag.takesValue ? "" : flag.value.kind === "choices" ? `:${flag.long}:(${words(flag.value.choices)})` : flag.value.kind === "files" ? `:${flag.long}:_files` : flag.value.kind === "directories" ? `:${flag.long}:_files -/` : `:${flag.long}: `;
      const repeat = flag.repeatable ? "*" : "";
      if (!flag.short) return `'${repeat}--${flag.long}${flag.takesValue ? "=" : ""}${description}${value}'`;
      const exclusive = flag.repeatable ? "" : `(-${flag.short} --${flag.long})`;
      return `'${exclusive}${repeat}-${flag.short}${flag.takesValue ? "+" : ""}${description}${value}' '${exclusive}${repeat}--${flag.long}${flag.takesValue ? "=" : ""}${description}${value}'`;
    });
    const positional = command.actions.length
      ? [`'1:action:(${words(command.actions.map((action) => action.name))})'`, `'*:argument:->action_argument'`]
      : [`'*:argument:${zshFiles(command.argument)}'`];
    const actionCases = command.actions.length
      ? [
          `      if [[ $state == action_argument ]]; then`,
          `        case $line[1] in`,
          ...command.actions.filter((action) => action.argument !== "any").map((action) => `          ${action.name}) ${zshFiles(action.argument)} ;;`),
          `        esac`,
          `      fi`,
        ]
      : [];
    return [`    ${command.name})`, `      _arguments -s -S \\`, ...[...specs, ...positional].map((spec) => `        ${spec} \\`), `        && return 0`, ...actionCases, `      ;;`].join("\n");
  });
  return `#compdef wfkit
# wfkit completion for zsh, generated by \`wfkit completion zsh\`.
# Load it in this shell:           source <(wfkit completion zsh)
# or save it as _wfkit in a directory of $fpath (before compinit runs):
#                                  wfkit completion zsh > ~/.zsh/completions/_wfkit

_wfkit() {
  local curcontext="$curcontext" state line
  local -a commands
  commands=(
${commands.map((command) => `    '${command.name}:${zshText(command.summary)}'`).join("\n")}
  )
  if (( CURRENT == 2 )); then
    _describe -t commands 'wfkit command' commands
    _arguments '(- *)'{-h,--help}'[show help]' '(- *)'{-V,--version}'[print the version]'
    return
  fi
  local command=$words[2]
  shift words
  (( CURRENT-- ))
  curcontext="\${curcontext%:*:*}:wfkit-$command:"
  case $command in
${cases.join("\n")}
    help)
      (( CURRENT == 2 )) && _describe -t commands 'wfkit command' commands
      ;;
  esac
}

if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
  _wfkit "$@"
else
  compdef _wfkit wfkit
fi
`;
}

/** Text in single quotes for fish: backslashes and quotes escaped. */
function fishText(text: string): string {
  return `'${short(text).replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
}

export function fishScript(commands: readonly CommandModel[]): string {
  const names = words(commands.map((command) => command.name));
  const lines = [
    `# wfkit completion for fish, generated by \`wfkit completion fish\`.`,
    `# Load it in this shell:   wfkit completion fish | source`,
    `# or for every shell:      wfkit completion fish > ~/.config/fish/completions/wfkit.fish`,
    ``,
    `complete -c wfkit -e`,
    `complete -c wfkit -n __fish_use_subcommand -f`,
    ...commands.map((command) => `complete -c wfkit -n __fish_use_subcommand -a ${command.name} -d ${fishText(command.summary)}`),
    `complete -c wfkit -n __fish_use_subcommand -s h -l help -d 'Show help'`,
    `complete -c wfkit -n __fish_use_subcommand -s V -l version -d 'Print the version'`,
    `complete -c wfkit -n '__fish_seen_subcommand_from help' -f -a '${names}'`,
  ];
  for (const command of commands) {
    const on = `__fish_seen_subcommand_from ${command.name}`;
    if (command.actions.length) {
      const actionNames = words(command.actions.map((action) => action.name));
      lines.push(`complete -c wfkit -n '${on}; and not __fish_seen_subcommand_from ${actionNames}' -f -a '${actionNames}'`);
      for (const action of command.actions)
        if (action.argument === "any") lines.push(`complete -c wfkit -n '${on}; and __fish_seen_subcommand_from ${action.name}' -f`);
        else if (action.argument === "directories") lines.push(`complete -c wfkit -n '${on}; and __fish_seen_subcommand_from ${action.name}' -f -a '(__fish_complete_directories)'`);
    } else if (command.argument === "any") lines.push(`complete -c wfkit -n '${on}' -f`);
    else if (command.argument === "directories") lines.push(`complete -c wfkit -n '${on}' -f -a '(__fish_complete_directories)'`);
    for (const flag of command.flags) {
      const names = `${flag.short ? `-s ${flag.short} ` : ""}-l ${flag.long}`;
      const value = !flag.takesValue
        ? ""
        : flag.value.kind === "choices"
          ? ` -x -a '${words(flag.value.choices)}'`
          : flag.value.kind === "files"
            ? " -r -F"
            : flag.value.kind === "directories"
              ? ` -x -a '(__fish_complete_directories)'`
              : " -x";
      lines.push(`complete -c wfkit -n '${on}' ${names}${value} -d ${fishText(flag.description)}`);
    }
  }
  return lines.join("\n") + "\n";
}

export async function runCompletion(argv: readonly string[], io: Io): Promise<number> {
  const args = parseCommandArgs(completionSpec, argv);
  const [shell, ...rest] = args.positionals;
  if (!shell || rest.length || !(SHELLS as readonly string[]).includes(shell)) throw new UsageError(`say which shell: \`completion bash\`, \`completion zsh\` or \`completion fish\`${shell ? ` (got \`${[shell, ...rest].join(" ")}\`)` : ""}`, "completion");
  const { COMMANDS } = await import("../main.js");
  const models = COMMANDS.map((command) => commandModel(command.spec));
  io.stdout.write(shell === "bash" ? bashScript(models) : shell === "zsh" ? zshScript(models) : fishScript(models));
  return 0;
}
