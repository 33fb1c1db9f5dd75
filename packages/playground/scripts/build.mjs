// `npm run build` for the playground: writes its files into dist/ (see build-config.mjs) and
// prints each one's size, raw and gzipped (what a browser downloads from a server that
// compresses).
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { buildPlaygroundFiles } from "./build-config.mjs";

const dist = fileURLToPath(new URL("../dist/", import.meta.url));
mkdirSync(dist, { recursive: true });
const kib = (bytes) => `${(bytes / 1024).toFixed(0)} KiB`;
for (const { name, contents } of await buildPlaygroundFiles()) {
  const target = path.join(dist, name);
  writeFileSync(`${target}.tmp`, contents);
  renameSync(`${target}.tmp`, target);
  console.log(`dist/${name}  ${kib(contents.length)} (gzip ${kib(gzipSync(contents).length)})`);
}
