#!/usr/bin/env node
// The wfkit command. All of wfkit is one esbuild bundle (dist/bundle/wfkit.mjs; the language
// server is a second one that only `wfkit lsp` loads), so starting it reads one file
// instead of resolving hundreds of modules.
import "../dist/bundle/wfkit.mjs";
