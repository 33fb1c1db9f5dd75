import { VALID_WF } from "./fixtures.js";
/**
 * Random edits for soak and equivalence tests: typing, deleting and pasting, including text
 * that breaks the syntax (unclosed braces and strings, stray arrows), from a seeded PRNG so
 * a failure replays exactly.
 */
export function prng(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    // xorshift32: fast and good enough to pick edits.
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x100000000;
  };
}

const SNIPPETS = [
  "trigger start on_demand\n",
  "part compare = terminal.compare@1 { job compare.peers@1 subjects [tesco, sainsbury] }\n",
  "part report = pack@1\n",
  'subject tesco = company "cmp_tesco" "Tesco PLC"\n',
  "gate floor hold\n",
  "destination inbox standalone\n",
  "start -> compare -> report -> floor -> inbox\n",
  "a -> b, c -> d\n",
  "# a comment with { and \" inside\n",
  "-> inbox\n",
  "{",
  "}",
  "[",
  "]",
  '"',
  "->",
  "@",
  "=",
  ",",
  "\n",
  "\r\n",
  " ",
  "x",
  "part",
  "terminal.",
  'node { "id": "raw", "kind": "gate", "belowFloor": "hold" }\n',
  'edge { "from": "start", "to": "raw" }\n',
  "workflow \"demo\"\n",
  "part p = terminal.profile@1 {\n  job profile.company@1\n  subjects [tesco]\n}\n",
  "é",
  "😀",
];

export interface RandomEdit {
  start: number;
  end: number;
  text: string;
}

/** One random edit of `text`: an insertion, a deletion or a replacement. */
export function randomEdit(text: string, random: () => number): RandomEdit {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  let start = Math.floor(random() * (text.length + 1));
  // Never split a surrogate pair: editors do not either.
  if (start > 0 && start < text.length && isLowSurrogate(text.charCodeAt(start))) start--;
  const roll = random();
  if (roll < 0.5) return { start, end: start, text: pick(SNIPPETS) };
  let end = Math.min(text.length, start + 1 + Math.floor(random() * (roll < 0.8 ? 3 : 40)));
  if (end < text.length && isLowSurrogate(text.charCodeAt(end))) end++;
  return { start, end, text: roll < 0.8 ? "" : pick(SNIPPETS) };
}

/**
 * `edit` with its ends moved out of any `\r\n` pair. An LSP position cannot name the offset
 * between `\r` and `\n` (both end the same line), so a client never sends such an edit; the
 * protocol tests, which send edits as ranges, use this.
 */
export function outsideLineBreaks(text: string, edit: RandomEdit): RandomEdit {
  const inside = (offset: number) => offset > 0 && text.charCodeAt(offset - 1) === 13 && text.charCodeAt(offset) === 10;
  const start = inside(edit.start) ? edit.start + 1 : edit.start;
  const end = Math.max(start, inside(edit.end) ? edit.end + 1 : edit.end);
  return { start, end, text: edit.text };
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

export function applyEdit(text: string, edit: RandomEdit): string {
  return text.slice(0, edit.start) + edit.text + text.slice(edit.end);
}

/** The document the random edits start from: the protocol tests' valid workflow. */
export const SAMPLE_WF = VALID_WF;
