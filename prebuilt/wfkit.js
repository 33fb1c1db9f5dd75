#!/usr/bin/env node
// The wfkit command of the repository's root package (pre-commit, installs from a git URL):
// the committed, minified build of the CLI. Regenerate it with `npm run update-prebuilt`.
import module from "node:module";

// V8's code cache, as in packages/cli/bin/wfkit.js (Node 22.1 and later; nothing on Node 20).
module.enableCompileCache?.();
await import("./wfkit.mjs");
