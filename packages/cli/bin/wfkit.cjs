#!/usr/bin/env node
// The wfkit command. All of wfkit's CLI is one esbuild bundle (dist/bundle/cli.cjs), run by
// dist/bundle/wfkit.cjs with V8's code cache (see src/launch.ts); the language server, the
// local service and the graph renderer are bundles of their own, loaded by the commands that
// need them. Starting it reads one file instead of resolving hundreds of modules, and, being
// CommonJS throughout, never starts Node's ES module loader (a few milliseconds per run).
require("../dist/bundle/wfkit.cjs");
