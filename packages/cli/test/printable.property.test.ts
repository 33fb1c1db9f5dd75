import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { printable, printableKeepingLineBreaks } from "../src/printable.js";

/** What must never reach a terminal or a CI log raw (tab is harmless and kept). */
const RAW = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe("printable", () => {
  it("writes line breaks and control characters as escapes a reader can see", () => {
    expect(printable("a\n::error::x")).toBe("a\\n::error::x");
    expect(printable("ok\r::add-mask::y")).toBe("ok\\r::add-mask::y");
    expect(printable("\u001b]52;c;aGk=\u0007")).toBe("\\u001b]52;c;aGk=\\u0007");
    expect(printable("\u009b31m\u0085\u2028\u2029\u202e")).toBe("\\u009b31m\\u0085\\u2028\\u2029\\u202e");
    expect(printable("tab\tand `id` stay")).toBe("tab\tand `id` stay");
  });

  it("masks one for one, so offsets into the text still hold", () => {
    expect(printable("a\u001b[31mb\u2028", "mask")).toBe("a\ufffd[31mb\ufffd");
  });

  it("leaves nothing raw, for any text, in either mode", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        expect(printable(text)).not.toMatch(RAW);
        const masked = printable(text, "mask");
        expect(masked).not.toMatch(RAW);
        expect(masked.length).toBe(text.length);
      }),
    );
  });

  it("in JSON, keeps the layout and the value, with nothing raw inside strings", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ unit: "binary" }), (value, text) => {
        const json = JSON.stringify({ value, text }, null, 2);
        const safe = printableKeepingLineBreaks(json);
        expect(JSON.parse(safe)).toEqual(JSON.parse(json));
        expect(safe.replace(/\n/g, "")).not.toMatch(RAW);
      }),
    );
  });
});
