/**
 * Colours on a real pseudo-terminal (util-linux `script` gives the CLI a terminal for stdin,
 * stdout and stderr), against https://no-color.org: `NO_COLOR` present and not empty turns
 * colour off; an empty `NO_COLOR` is as if it were unset. Found by an outside review: with
 * `NO_COLOR=` on a terminal, Node's `styleText` dropped single styles while wfkit kept lists
 * of styles, so lines came out half coloured. Whatever the decision, a line is coloured
 * whole or not at all: the terminal output equals the forced-colour output, or the plain one.
 */
import { spawnSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { bin, ensureBuilt, fixtures, runCli } from "../../../test/support/built-cli.js";

beforeAll(() => ensureBuilt());

const ESC = "\u001b";

/** The CLI's output on a pseudo-terminal (stdout and stderr both go to it). */
function onTerminal(args: readonly string[], env: Record<string, string>): string {
  const command = [process.execPath, bin, ...args].map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(" ");
  const result = spawnSync("script", ["-qfec", command, "/dev/null"], { cwd: fixtures, encoding: "utf8", input: "", timeout: 60_000, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", TERM: "xterm-256color", ...env } });
  expect(result.error).toBeUndefined();
  // The terminal turns each "\n" into "\r\n".
  return result.stdout.replace(/\r\n/g, "\n");
}

describe("colour on a terminal", () => {
  const checkArgs = ["check", "defs/warnings.json"];
  let coloured: string;
  let plain: string;
  beforeAll(() => {
    coloured = runCli(checkArgs, { env: { FORCE_COLOR: "1" } }).stdout;
    plain = runCli(checkArgs).stdout;
  });

  it("the reference outputs differ only by colour", () => {
    expect(coloured).toContain(`${ESC}[`);
    expect(plain).not.toContain(ESC);
    expect(coloured.replace(/\u001b\[\d+m/g, "")).toBe(plain);
  });

  it("is on, whole, on a terminal without NO_COLOR, and with NO_COLOR set but empty", () => {
    expect(onTerminal(checkArgs, {})).toBe(coloured);
    expect(onTerminal(checkArgs, { NO_COLOR: "" })).toBe(coloured);
  });

  it("is off with NO_COLOR set to anything, even with FORCE_COLOR", () => {
    for (const value of ["1", "0", "false", "no"]) {
      expect(onTerminal(checkArgs, { NO_COLOR: value }), `NO_COLOR=${value}`).toBe(plain);
      expect(onTerminal(checkArgs, { NO_COLOR: value, FORCE_COLOR: "1" }), `NO_COLOR=${value} FORCE_COLOR=1`).toBe(plain);
    }
  });

  it("is off with FORCE_COLOR=0 or false, or TERM=dumb, on a terminal", () => {
    expect(onTerminal(checkArgs, { FORCE_COLOR: "0" })).toBe(plain);
    expect(onTerminal(checkArgs, { FORCE_COLOR: "false", NO_COLOR: "" })).toBe(plain);
    expect(onTerminal(checkArgs, { TERM: "dumb" })).toBe(plain);
  });

  it("the fault display of other commands, on stderr, follows the same decision", () => {
    const args = ["compile", "defs/broken.json"];
    const forced = runCli(args, { env: { FORCE_COLOR: "1" } }).stderr;
    expect(forced).toContain(`${ESC}[`);
    expect(onTerminal(args, { NO_COLOR: "" })).toBe(forced);
    expect(onTerminal(args, { NO_COLOR: "1" })).toBe(runCli(args).stderr);
  });
});
