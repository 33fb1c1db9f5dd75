/// <reference path="./playground-files.d.ts" />
/**
 * The parts of wfkit bundled apart from the CLI (see scripts/bundles.mjs), each loaded only by
 * the command that needs it. In the CLI's bundle, which runs as a script compiled with V8's
 * code cache (launch.ts), a dynamic `import()` cannot be resolved on Node 20 without an
 * experimental loader; the launcher lends its own `import` instead, under this symbol.
 */
type Importer = (specifier: string) => Promise<unknown>;

const launcherImport = (globalThis as { [key: symbol]: Importer | undefined })[Symbol.for("wfkit.importBeside")];

export function loadGraph(): Promise<typeof import("@wfkit/graph")> {
  return launcherImport ? (launcherImport("./graph.mjs") as Promise<typeof import("@wfkit/graph")>) : import("@wfkit/graph");
}

export function loadService(): Promise<typeof import("@wfkit/service")> {
  return launcherImport ? (launcherImport("./service.mjs") as Promise<typeof import("@wfkit/service")>) : import("@wfkit/service");
}

export function loadLanguageServer(): Promise<{ startServer?: unknown }> {
  return launcherImport ? (launcherImport("./lsp.mjs") as Promise<{ startServer?: unknown }>) : import("@wfkit/language-server");
}

export function loadPlaygroundFiles(): Promise<typeof import("wfkit:playground-files")> {
  return launcherImport ? (launcherImport("./playground.mjs") as Promise<typeof import("wfkit:playground-files")>) : import("wfkit:playground-files");
}
