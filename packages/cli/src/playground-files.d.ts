/**
 * The playground's files (index.html, playground.js, worker.js, ...) by name, as text. In the
 * CLI's bundles this is the sibling playground.mjs (scripts/bundles.mjs builds it from
 * packages/playground); only `wfkit playground` imports it.
 */
declare module "wfkit:playground-files" {
  export const playgroundFiles: Readonly<Record<string, string>>;
}
