/**
 * Terminal colours. The escape codes come from Node's own `util.styleText` (in Node since
 * 20.12, so no colour library to load); whether to use them is decided here, because Node 20's
 * styleText does not look at the stream or the environment itself.
 *
 * - `NO_COLOR` set to anything but "" turns colours off, always (https://no-color.org).
 * - Otherwise `FORCE_COLOR` turns them on ("0" or "false" turns them off), for CI logs that
 *   render ANSI.
 * - Otherwise colours are on only when the stream is a terminal and TERM is not "dumb".
 */
import { styleText } from "node:util";

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

export function painter(enabled: boolean): Painter {
  return {
    enabled,
    paint: enabled ? (style, text) => (text === "" ? text : styleText(style, text)) : (_style, text) => text,
  };
}
