/**
 * @wfkit/language-server: the wfkit language service (pure: text in, plain results out) and
 * the LSP server built on it. Importing this module starts nothing; call `startServer()`.
 */
export { startServer, listen } from "./server/server.js";
export { createLanguageService, type LanguageService, type LanguageServiceOptions } from "./service/language-service.js";
export type { WfkitDocument } from "./service/document.js";
export * from "./service/types.js";
export * from "./protocol.js";
