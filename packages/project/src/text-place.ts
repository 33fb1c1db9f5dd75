/** A 1-based line and column (UTF-16 code units), as editors and compilers print them. */
export interface TextPlace {
  line: number;
  column: number;
}

/** Where an offset falls; one pass over the text before it. */
export function lineColumnAt(text: string, offset: number): TextPlace {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(Math.max(offset, 0), text.length);
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}
