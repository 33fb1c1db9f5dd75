/**
 * Share links: the text, compressed with DEFLATE and written in base64url after `#wf1=` in
 * the page's address. The fragment (after `#`) never leaves the browser: servers do not see
 * it, so sharing sends the text nowhere but to whom the link is given.
 *
 * The compression is the platform's `CompressionStream("deflate-raw")` (every current browser,
 * and Node 20): no library in the page's bundle (lz-string or fflate would each add a few
 * KiB to download), and DEFLATE packs source text tighter than lz-string's scheme.
 * `1` in the prefix is the format's version, so a later format can still read old links.
 */
const PREFIX = "wf1=";

/** The most text a link may inflate to; a longer one is refused (a crafted link cannot fill memory). */
export const MAX_SHARED_CHARS = 1_000_000;

export type SharedText = { text: string } | { error: string };

export async function shareFragment(text: string): Promise<string> {
  const packed = await readAll(new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw")), Infinity);
  return `${PREFIX}${toBase64Url(packed ?? new Uint8Array())}`;
}

/**
 * The text a fragment (`location.hash` without `#`) carries; undefined when it carries none,
 * an error that says what is wrong with a link that is damaged.
 */
export async function sharedTextOf(fragment: string): Promise<SharedText | undefined> {
  if (!fragment.startsWith(PREFIX)) return undefined;
  const bytes = fromBase64Url(fragment.slice(PREFIX.length));
  if (!bytes) return { error: "The share link is damaged (it has characters a share link never has); ask for it again." };
  try {
    const inflated = await readAll(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw")), MAX_SHARED_CHARS * 3);
    const text = inflated && new TextDecoder("utf-8", { fatal: true }).decode(inflated);
    if (text === undefined || text.length > MAX_SHARED_CHARS) return { error: `The share link holds more than ${MAX_SHARED_CHARS.toLocaleString("en")} characters, more than the playground opens.` };
    return { text };
  } catch {
    return { error: "The share link is damaged (it may have been cut short when it was copied); ask for it again." };
  }
}

/** Every byte of a stream, or undefined once there are more than `limit` (the stream is cancelled). */
async function readAll(stream: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array | undefined> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.length;
    if (length > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  const all = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.length;
  }
  return all;
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  // In slices: String.fromCharCode takes its arguments on the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}
