#!/usr/bin/env node
// The wfkit command of the repository's root package (pre-commit, installs from a git URL):
// the committed, minified build of the CLI. Regenerate it with `npm run update-prebuilt`.
// wfkit.mjs runs cli.cjs with V8's code cache, as in packages/cli/bin/wfkit.js.
await import("./wfkit.mjs");
