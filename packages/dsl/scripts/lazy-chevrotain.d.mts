import type { Plugin } from "esbuild";
/** The esbuild plugin that makes a bundle load the chevrotain path on first need. */
export const lazyChevrotainPath: Plugin;
