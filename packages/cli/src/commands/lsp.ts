/** `wfkit lsp`: the language server, over standard input and output. */
import { parseCommandArgs } from "../args.js";
import { lspSpec } from "./specs.js";
import { CliError } from "../errors.js";
import type { Io } from "../io.js";
import { loadLanguageServer } from "../siblings.js";

export async function runLsp(argv: readonly string[], _io: Io): Promise<number> {
  parseCommandArgs(lspSpec, argv);
  // Loaded only here: the server and its protocol library are most of the bundle's weight,
  // and `check` must not pay for them.
  const server = await loadLanguageServer();
  if (typeof server.startServer !== "function") throw new CliError("the language server is not built yet");
  // The server reads and writes stdio until the client closes it; the process stays alive
  // on its own, so the command returns at once and the exit code applies when it ends.
  (server.startServer as () => void)();
  return 0;
}
