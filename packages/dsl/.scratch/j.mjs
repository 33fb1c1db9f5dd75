import { parseTree } from "jsonc-parser";
for (const t of ['{"a": 1,}', '[1,2,]', '{"a":1 // c\n}', '{"a": -0}', '', '{"a": [1, ', '\ufeff{"a":1}', '{"a" 1}', '{"__proto__": 1}']) {
  const errors = [];
  const tree = parseTree(t, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  console.log(JSON.stringify(t), JSON.stringify(errors), tree && tree.type, tree && JSON.stringify(tree.children?.[0]?.children?.[1]?.value));
}
