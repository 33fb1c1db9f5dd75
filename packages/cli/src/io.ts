/**
 * Everything a command touches outside its arguments, in one object, so that tests can run
 * commands in-process with fake streams and environment, and so that output is written in
 * one piece (a partial report on a broken pipe is worse than none).
 */

export interface Output {
  write(text: string): void;
  /** True when the stream is a terminal: decides colours and progress-style output. */
  readonly isTTY: boolean;
}

export interface Io {
  readonly stdout: Output;
  readonly stderr: Output;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Reads all of standard input as UTF-8. */
  readStdin(): Promise<string>;
}

export function processIo(): Io {
  return {
    stdout: { write: (text) => void process.stdout.write(text), isTTY: process.stdout.isTTY === true },
    stderr: { write: (text) => void process.stderr.write(text), isTTY: process.stderr.isTTY === true },
    cwd: process.cwd(),
    env: process.env,
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString("utf8");
    },
  };
}
