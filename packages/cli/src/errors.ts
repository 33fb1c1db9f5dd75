/**
 * The two ways a command fails before it can report faults. Both end in exit code 2 with one
 * line on stderr and no stack trace: the user made a mistake in how they called wfkit (a
 * usage error) or in what it could read (a missing file, a bad catalogue or config).
 */

/** The command line is wrong: unknown flag, missing argument, bad value. */
export class UsageError extends Error {
  override readonly name = "UsageError";
  /** The command whose `--help` to point at. */
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super(message);
  }
}

/** Something wfkit had to read or write could not be: the message says what and why. */
export class CliError extends Error {
  override readonly name = "CliError";
  /**
   * Further problems of the same failure, each printed on a line of its own after the
   * message (every mistake of a config at once).
   */
  more: readonly string[] = [];
}

/**
 * A file that already holds something else is not replaced without `--force`: what a pull
 * writes comes from a server, and the user's own catalogue or source there may be the only
 * copy. A refusal (exit 1), not an I/O failure: the file is left untouched.
 */
export class ReplaceRefused extends CliError {
}

/** Turns an fs error into a sentence a user can act on, naming the path as they wrote it. */
export function describeFsError(error: unknown, displayPath: string): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case "ENOENT":
      return `${displayPath}: no such file or directory`;
    case "EACCES":
    case "EPERM":
      return `${displayPath}: permission denied`;
    case "EISDIR":
      return `${displayPath}: is a directory, not a file`;
    case "ENOTDIR":
      return `${displayPath}: a parent of this path is not a directory`;
    default:
      return `${displayPath}: ${error instanceof Error ? error.message : String(error)}`;
  }
}
