#!/usr/bin/env node
// The wfkit command. All of wfkit's CLI is one esbuild bundle (dist/bundle/cli.cjs), run by
// dist/bundle/wfkit.mjs with V8's code cache (see src/launch.ts); the language server, the
// local service and the graph renderer are bundles of their own, loaded by the commands that
// need them. Starting it reads one file instead of resolving hundreds of modules.
await import("../dist/bundle/wfkit.mjs");
