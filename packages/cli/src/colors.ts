/**
 * Terminal colours, decided here and only here:
 *
 * - `NO_COLOR` present and not empty turns colours off, always (https://no-color.org: an
 *   empty `NO_COLOR` is as if it were not set).
 * - Otherwise `FORCE_COLOR` present turns them on, for CI logs that render ANSI; `0` or
 *   `false` turns them off. An empty `FORCE_COLOR` turns them on, as in Node and chalk.
 * - Otherwise colours are on only when the stream is a terminal and TERM is not "dumb".
 *
 * The escape codes are Node's own table (`util.inspect.colors`, the one `util.styleText`
 * uses), applied here directly: styleText in Node 20 makes a decision of its own for a single
 * style (it looks at process.stdout and NO_COLOR being present at all) and none for a list
 * of styles, so with it one line came out half coloured.
 */
import { inspect } from "node:util";

export type Style = "bold" | "dim" | "red" | "yellow" | "green" | "cyan" | "gray" | "underline" | "magenta";

export interface Painter {
  readonly enabled: boolean;
  paint(style: Style | Style[], text: string): string;
}

export function shouldColour(env: Readonly<Record<string, string | undefined>>, isTTY: boolean): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== "0" && force.toLowerCase() !== "false";
  return isTTY && env.TERM !== "dumb";
}

function sgr(style: Style, text: string): string {
  const [open, close] = inspect.colors[style]!;
  return `\u001b[${open}m${text}\u001b[${close}m`;
}

export function painter(enabled: boolean): Painter {
  return {
    enabled,
    paint: enabled
      ? (style, text) => (text === "" ? text : (Array.isArray(style) ? style : [style]).reduceRight((inner, one) => sgr(one, inner), text))
      : (_style, text) => text,
  };
}
