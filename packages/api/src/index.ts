/**
 * @wfkit/api: the contract of the Workflows API and the Consumer Signals API, written once.
 * Its route table (`routes.ts`: method, path, credential, parameters, body, whether a request
 * may be sent again, the answer's status and shape), its wire types, enumerations, error table
 * and parameter rules are what `@wfkit/service` registers and validates by and what
 * `@wfkit/client` calls, types and checks by. Plain data and pure functions: browser-safe.
 */
export * from "./enums.js";
export * from "./workflows-types.js";
export * from "./signals-types.js";
export * from "./params.js";
export * from "./errors.js";
export * from "./routes.js";
export * as shapes from "./shapes.js";
export { describeMismatch, type Guard, type Mismatch } from "./shapes.js";
