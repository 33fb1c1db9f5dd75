// Entry point of the checker thread's own bundle (`lsp-checker.cjs`, beside the server's):
// only what checking needs, without the protocol library or the graph drawing, so that a new
// checker thread compiles a fraction of the server's code. The thread loads it through
// CHECKER_LOADER (server/checker-loader.ts), which calls `runCheckerWorker`.
export { runCheckerWorker } from "./server/checker-worker.js";
