/**
 * Imported first by the server's entry point (main.ts), for its effect: the checker thread is
 * started before the rest of the server's modules are evaluated (ES modules are evaluated in
 * the order they are imported, and the bundle keeps that order), so that the thread starts up
 * beside the server's own start-up instead of after it (see checker-loader.ts).
 */
import { prestartChecker } from "./checker-loader.js";

prestartChecker(new URL(import.meta.url));
