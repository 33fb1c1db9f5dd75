#!/usr/bin/env node
// The wfkit command of the repository's root package (pre-commit, installs from a git URL):
// the committed, minified build of the CLI. Regenerate it with `npm run update-prebuilt`.
import "./wfkit.mjs";
