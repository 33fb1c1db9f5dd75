/**
 * Typed arrays for one check's passes, cheap to make when the graph is small.
 *
 * V8 keeps a typed array of up to 64 bytes inside its heap; a larger one gets a buffer of its
 * own outside it, which costs about a microsecond to make (about 20 times a view on a buffer
 * that exists) and is tracked until a collection frees it. A check of a definition of 20-40
 * nodes makes about twenty such arrays, a tenth of its time when a directory of such files is
 * checked (docs/performance.md). So an array of up to `SMALL_BYTES` is cut from a shared
 * chunk: each chunk is cut front to back, once, and never handed out again, so no two arrays
 * share memory and every array starts zeroed, as a new one does. A chunk is freed when every
 * array cut from it is (a model a caller keeps holds at most one chunk's `CHUNK_BYTES`).
 * Larger arrays, where the making is small beside the work, are made as before.
 */

const CHUNK_BYTES = 64 * 1024;
const SMALL_BYTES = 4 * 1024;

let chunk: ArrayBuffer | undefined;
let used = CHUNK_BYTES;

/** Where `bytes` (at most SMALL_BYTES) begin in `chunk`, cutting a new chunk when needed. */
function cut(bytes: number): number {
  if (used + bytes > CHUNK_BYTES || chunk === undefined) {
    chunk = new ArrayBuffer(CHUNK_BYTES);
    used = 0;
  }
  const at = used;
  // Every cut starts on an 8-byte boundary, as an Int32Array's offset must be a multiple of 4.
  used += (bytes + 7) & ~7;
  return at;
}

/** A zeroed Int32Array of `length` items. */
export function int32Array(length: number): Int32Array {
  const bytes = length * 4;
  if (bytes <= 64 || bytes > SMALL_BYTES) return new Int32Array(length);
  const at = cut(bytes);
  return new Int32Array(chunk!, at, length);
}

/** A zeroed Uint8Array of `length` items. */
export function uint8Array(length: number): Uint8Array {
  if (length <= 64 || length > SMALL_BYTES) return new Uint8Array(length);
  const at = cut(length);
  return new Uint8Array(chunk!, at, length);
}
