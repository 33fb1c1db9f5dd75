// An esbuild plugin for bundles that start often (the CLI, the language server's checker
// thread): it replaces src/parser-loader.ts (or the dist/parser-loader.js built from it) by a
// module that loads parser.ts on the first call. esbuild then keeps parser.ts, and chevrotain
// with it, out of the bundle's start-up: a run that reads only valid text never evaluates
// chevrotain (about 15 ms of a small file's check). An ES module has no synchronous way to do
// this, which is why the source imports parser.ts as usual and the bundles opt in here.
import { basename, dirname } from "node:path";

export const lazyChevrotainPath = {
  name: "lazy-chevrotain-path",
  setup(build) {
    build.onLoad({ filter: /[\\/]dsl[\\/](src|dist)[\\/]parser-loader\.[jt]s$/ }, ({ path }) => ({
      contents: `let loaded;\nexport function chevrotainPath() {\n  return (loaded ??= require(${JSON.stringify(`./${basename(path).replace("parser-loader", "parser")}`)}));\n}\n`,
      loader: "js",
      resolveDir: dirname(path),
    }));
  },
};
