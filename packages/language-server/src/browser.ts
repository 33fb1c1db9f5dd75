/**
 * `@wfkit/language-server/browser`: the language server for a browser (a Web Worker), beside
 * the Node one of the package's main entry. Nothing here imports from `node:`.
 */
export { startBrowserServer, listenInBrowser, CHECKED_NOTIFICATION, type CheckedParams } from "./browser/server.js";
export * from "./protocol.js";
