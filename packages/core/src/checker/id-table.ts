/**
 * The index from node id to node: the checker's hottest structure (one insert per node, two
 * lookups per edge). A `Map` grows by rehashing and costs about 100 ns per insert at 10,000
 * ids, most of the model's build time; this open-addressing table is sized once and stores
 * only entry indices in a typed array, beside a dense array of the entries' ids, so it
 * allocates a handful of arrays per check.
 *
 * The hash is FNV-1a over the id's UTF-16 units, seeded at random per process so that a
 * crafted file cannot choose ids that all collide (which would make every probe linear).
 */

import { int32Array } from "./small-arrays.js";
const SEED = (Math.random() * 0x1_0000_0000) >>> 0;

function hashOf(id: string): number {
  let hash = SEED ^ id.length;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x0100_0193);
  // Mix the high bits down: the table masks off low bits, and FNV's low bits are weak.
  return hash ^ (hash >>> 15);
}

/** How many recently found ids an IdTable remembers (a power of two). */
const RECENT_SIZE = 64;

export class IdTable<T extends { readonly id: string | undefined }> {
  /** Slot → entry index + 1 (0: empty). */
  private readonly slots: Int32Array;
  private readonly mask: number;
  /**
   * The entries' ids, by entry index: a probe compares against this dense array instead of
   * loading each entry object, which on a large graph is one cache miss less per lookup.
   */
  private readonly ids: string[] = [];
  /**
   * Ids found lately, each in a place chosen by a cheap key of its own (length and last
   * unit): the ends of an edge list name the same nodes over and over (a trigger, a gate, the
   * step before), and comparing with a remembered id costs less than hashing it. A hit is a
   * whole-string compare and the cache is small and fixed, so a crafted file can only make it
   * miss, at the cost of one compare per lookup.
   */
  private readonly recentIds: (string | undefined)[] = new Array<string | undefined>(RECENT_SIZE).fill(undefined);
  private readonly recentIndices = int32Array(RECENT_SIZE);

  /** `entries` is filled by `claim` and must not be changed otherwise. */
  constructor(
    capacityHint: number,
    private readonly entries: T[],
  ) {
    let size = 16;
    while (size < capacityHint * 2) size *= 2;
    this.slots = int32Array(size);
    this.mask = size - 1;
  }

  /**
   * Adds `entry` under its id unless the id is taken; returns the entry that owns the id
   * (`entry` itself when it was free).
   */
  claim(entry: T & { id: string }): T {
    const id = entry.id;
    const { slots, mask, ids } = this;
    let slot = hashOf(id) & mask;
    for (;;) {
      const held = slots[slot]!;
      if (held === 0) break;
      if (ids[held - 1] === id) return this.entries[held - 1]!;
      slot = (slot + 1) & mask;
    }
    this.entries.push(entry);
    ids.push(id);
    slots[slot] = ids.length;
    return entry;
  }

  /** The index in `entries` of the entry that owns `id`, or -1. */
  indexOf(id: string): number {
    const length = id.length;
    const recent = length === 0 ? 0 : (length * 7 + id.charCodeAt(length - 1)) & (RECENT_SIZE - 1);
    if (this.recentIds[recent] === id) return this.recentIndices[recent]!;
    const { slots, mask, ids } = this;
    let slot = hashOf(id) & mask;
    for (;;) {
      const held = slots[slot]!;
      if (held === 0) return -1;
      if (ids[held - 1] === id) {
        this.recentIds[recent] = id;
        this.recentIndices[recent] = held - 1;
        return held - 1;
      }
      slot = (slot + 1) & mask;
    }
  }

  get(id: string): T | undefined {
    const index = this.indexOf(id);
    return index < 0 ? undefined : this.entries[index];
  }

  has(id: string): boolean {
    return this.indexOf(id) >= 0;
  }
}
