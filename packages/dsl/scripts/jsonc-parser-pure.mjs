// An esbuild plugin for bundles that start often (the CLI, the language server's checker
// thread): it tells esbuild that jsonc-parser's modules have no side effects, which the
// package does not declare, so that esbuild leaves out the modules wfkit never imports.
// Those include its formatter, whose `string-intern.js` builds about 1,200 whitespace
// strings (about 230 KB) when it is evaluated, at every start-up of a bundle that includes it.
// wfkit imports only the parser (`parseTree`, `visit`, `findNodeAtLocation`,
// `printParseErrorCode`).
const fromJsoncParser = /[\\/]node_modules[\\/]jsonc-parser[\\/]/;
const resolving = Symbol("jsonc-parser-pure");

export const jsoncParserPure = {
  name: "jsonc-parser-pure",
  setup(build) {
    build.onResolve({ filter: /^(jsonc-parser$|\.\.?\/)/ }, async (args) => {
      if (args.pluginData === resolving || (args.path !== "jsonc-parser" && !fromJsoncParser.test(args.importer))) return undefined;
      const resolved = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: resolving });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      return { path: resolved.path, sideEffects: false };
    });
  },
};
