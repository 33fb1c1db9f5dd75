import { describe, expect, it } from "vitest";
import { choiceFlag, countFlag, parseCommandArgs, renderCommandHelp, type CommandSpec } from "../src/args.js";
import { UsageError } from "../src/errors.js";

const spec: CommandSpec = {
  name: "demo",
  summary: "A demo command.",
  usage: "[options] FILE",
  flags: {
    format: { type: "string", short: "f", value: "FORMAT", description: "The format." },
    quiet: { type: "boolean", description: "Be quiet." },
    count: { type: "string", value: "N", description: "A count." },
  },
  examples: [{ comment: "Run it", command: "wfkit demo x" }],
};

describe("parseCommandArgs", () => {
  it("reads flags and positionals", () => {
    const args = parseCommandArgs(spec, ["-f", "json", "a", "--quiet", "b"]);
    expect(args.positionals).toEqual(["a", "b"]);
    expect(args.values).toMatchObject({ format: "json", quiet: true });
  });

  it("restates parseArgs errors for users, naming the command", () => {
    const failure = (argv: string[]) => {
      try {
        parseCommandArgs(spec, argv);
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        expect((error as UsageError).command).toBe("demo");
        return (error as Error).message;
      }
      throw new Error("expected a usage error");
    };
    expect(failure(["--nope"])).toBe("unknown option --nope");
    expect(failure(["--format"])).toBe("option --format needs a value");
    expect(failure(["-f"])).toBe("option --format needs a value");
    expect(failure(["--quiet=yes"])).toBe("option --quiet does not take a value");
    expect(failure(["--count", "-1"])).toBe("option --count needs a value (write --count=VALUE for a value that starts with -)");
  });
});

describe("typed flags", () => {
  it("checks choices and counts", () => {
    expect(choiceFlag(parseCommandArgs(spec, ["-f", "dot"]), "format", ["mermaid", "dot"], "mermaid", "demo")).toBe("dot");
    expect(choiceFlag(parseCommandArgs(spec, []), "format", ["mermaid", "dot"], "mermaid", "demo")).toBe("mermaid");
    expect(() => choiceFlag(parseCommandArgs(spec, ["-f", "svg"]), "format", ["mermaid", "dot"], "mermaid", "demo")).toThrow("--format must be one of mermaid, dot (got `svg`)");
    expect(countFlag(parseCommandArgs(spec, ["--count", "0"]), "count", "demo")).toBe(0);
    expect(() => countFlag(parseCommandArgs(spec, ["--count=-1"]), "count", "demo")).toThrow("--count must be a whole number of 0 or more (got `-1`)");
    expect(() => countFlag(parseCommandArgs(spec, ["--count", "1.5"]), "count", "demo")).toThrow(UsageError);
  });
});

describe("renderCommandHelp", () => {
  it("lists usage, every flag with --help, and examples", () => {
    const help = renderCommandHelp(spec);
    expect(help).toMatch(/^Usage: wfkit demo \[options\] FILE\n/);
    expect(help).toContain("  -f, --format FORMAT  The format.");
    expect(help).toContain("      --quiet          Be quiet.");
    expect(help).toContain("  -h, --help           Show this help and exit.");
    expect(help).toContain("  # Run it\n  wfkit demo x\n");
  });
});
