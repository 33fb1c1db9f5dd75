import type { Plugin } from "esbuild";
/** The esbuild plugin that lets a bundle leave out the parts of jsonc-parser wfkit never imports. */
export const jsoncParserPure: Plugin;
