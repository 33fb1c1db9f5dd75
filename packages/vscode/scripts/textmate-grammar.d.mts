/** Types of textmate-grammar.mjs, for the test that keeps the checked-in grammar current. */
export const GRAMMAR_PATH: string;
export function textMateGrammar(table: typeof import("@wfkit/dsl")): string;
