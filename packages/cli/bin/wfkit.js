#!/usr/bin/env node
// The wfkit command. All of wfkit is one esbuild bundle (dist/bundle/wfkit.mjs; the language
// server is a second one that only `wfkit lsp` loads), so starting it reads one file
// instead of resolving hundreds of modules.
import module from "node:module";

// V8's code cache for the bundle, kept by Node between runs, saves compiling it on every
// start (Node 22.1 and later; Node 20 has no such call, and there this does nothing). It
// must be on before the bundle is loaded, hence the dynamic import.
module.enableCompileCache?.();
await import("../dist/bundle/wfkit.mjs");
