/**
 * The index from node id to node: the checker's hottest structure (one insert per node, two
 * lookups per edge). A `Map` grows by rehashing and costs about 100 ns per insert at 10,000
 * ids, most of the model's build time; this open-addressing table is sized once and stores
 * only graph indices in a typed array, so it allocates two arrays per check.
 *
 * The hash is FNV-1a over the id's UTF-16 units, seeded at random per process so that a
 * crafted file cannot choose ids that all collide (which would make every probe linear).
 */
const SEED = (Math.random() * 0x1_0000_0000) >>> 0;

function hashOf(id: string): number {
  let hash = SEED ^ id.length;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x0100_0193);
  // Mix the high bits down: the table masks off low bits, and FNV's low bits are weak.
  return hash ^ (hash >>> 15);
}

export class IdTable<T extends { readonly id: string | undefined }> {
  /** Slot → entry index + 1 (0: empty). */
  private readonly slots: Int32Array;
  private readonly mask: number;

  /** `entries` is filled by `claim` and must not be changed otherwise. */
  constructor(
    capacityHint: number,
    private readonly entries: T[],
  ) {
    let size = 16;
    while (size < capacityHint * 2) size *= 2;
    this.slots = new Int32Array(size);
    this.mask = size - 1;
  }

  /**
   * Adds `entry` under its id unless the id is taken; returns the entry that owns the id
   * (`entry` itself when it was free).
   */
  claim(entry: T & { id: string }): T {
    const id = entry.id;
    const { slots, mask, entries } = this;
    let slot = hashOf(id) & mask;
    for (;;) {
      const held = slots[slot]!;
      if (held === 0) break;
      const owner = entries[held - 1]!;
      if (owner.id === id) return owner;
      slot = (slot + 1) & mask;
    }
    entries.push(entry);
    slots[slot] = entries.length;
    return entry;
  }

  get(id: string): T | undefined {
    const { slots, mask, entries } = this;
    let slot = hashOf(id) & mask;
    for (;;) {
      const held = slots[slot]!;
      if (held === 0) return undefined;
      const owner = entries[held - 1]!;
      if (owner.id === id) return owner;
      slot = (slot + 1) & mask;
    }
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }
}
