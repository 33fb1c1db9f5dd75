// Writes grammar/wf-railroad.html, the railroad diagram of the `.wf` grammar, from the
// parser's own productions. Run after building the package (`npx tsc -b packages/dsl`):
//   node packages/dsl/scripts/gen-grammar.mjs          write the file
//   node packages/dsl/scripts/gen-grammar.mjs --check  exit 1 if the file is stale
// (`UPDATE_GOLDEN=1 npx vitest run packages/dsl/test/grammar.test.ts` does the same from sources;
// `npm run grammar` writes it and the editor's TextMate grammar, packages/vscode/scripts/textmate-grammar.mjs.)
import { writeGenerated } from "../../../scripts/generated-files.mjs";
import { fileURLToPath } from "node:url";
import { railroadHtml } from "../dist/parser.js";

const target = fileURLToPath(new URL("../../../grammar/wf-railroad.html", import.meta.url));
const html = railroadHtml();
writeGenerated([{ path: target, text: html }], "node packages/dsl/scripts/gen-grammar.mjs");
