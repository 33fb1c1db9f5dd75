/**
 * Share links in Node (the same CompressionStream and base64 the browser has): any text comes
 * back as it went in, and a damaged or oversized link is refused with a reason, never thrown.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_SHARED_CHARS, shareFragment, sharedTextOf } from "../src/share.js";
import { numRuns } from "../../../test/support/num-runs.js";

describe("share links", () => {
  it("carry any text, Unicode included, in characters an address keeps as they are", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "grapheme", maxLength: 400 }), async (text) => {
        const fragment = await shareFragment(text);
        expect(fragment).toMatch(/^wf1=[A-Za-z0-9_-]*$/);
        expect(await sharedTextOf(fragment)).toEqual({ text });
      }),
      { numRuns: numRuns(100) },
    );
  });

  it("are shorter than the text for a real workflow", async () => {
    const text = "trigger start on_demand\npart report = pack@1\ndestination inbox standalone\nstart -> report -> inbox\n".repeat(20);
    expect((await shareFragment(text)).length).toBeLessThan(text.length / 5);
  });

  it("leave a fragment of another kind alone", async () => {
    expect(await sharedTextOf("")).toBeUndefined();
    expect(await sharedTextOf("section-2")).toBeUndefined();
  });

  it("refuse a damaged link with the reason", async () => {
    const fragment = await shareFragment("trigger start on_demand\n".repeat(50));
    expect(await sharedTextOf(fragment.slice(0, -8))).toEqual({ error: expect.stringMatching(/^The share link is damaged \(it may have been cut short/) });
    expect(await sharedTextOf(`${fragment}%20`)).toEqual({ error: expect.stringMatching(/^The share link is damaged \(it has characters/) });
    expect(await sharedTextOf("wf1=A")).toEqual({ error: expect.stringMatching(/^The share link is damaged/) });
  });

  it("refuse a link that inflates past the limit", async () => {
    const fragment = await shareFragment("a".repeat(MAX_SHARED_CHARS * 4));
    expect(fragment.length).toBeLessThan(10_000);
    expect(await sharedTextOf(fragment)).toEqual({ error: `The share link holds more than ${MAX_SHARED_CHARS.toLocaleString("en")} characters, more than the playground opens.` });
    expect(await sharedTextOf(await shareFragment("a".repeat(MAX_SHARED_CHARS)))).toEqual({ text: "a".repeat(MAX_SHARED_CHARS) });
  });
});
