/** The sql.js build with its WebAssembly inlined: no .wasm file to find at run time, bundled or not. */
declare module "sql.js/dist/sql-wasm-inline.js" {
  import type { InitSqlJsStatic } from "sql.js";
  const initSqlJs: InitSqlJsStatic;
  export default initSqlJs;
}
