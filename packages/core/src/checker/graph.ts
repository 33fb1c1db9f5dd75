/**
 * Graph algorithms over the checker's compressed adjacency. All iterative (a 100,000-node
 * chain must not overflow the stack) and O(nodes + edges).
 */

import { int32Array, uint8Array } from "./small-arrays.js";

/**
 * Compressed adjacency (CSR): the neighbours of node i are
 * `targets[offsets[i] .. offsets[i + 1])`. Two typed arrays for the whole graph instead of
 * one array per node, which matters at 100,000 nodes.
 */
export interface Adjacency {
  readonly offsets: Int32Array;
  readonly targets: Int32Array;
}

export function degree(adjacency: Adjacency, node: number): number {
  return adjacency.offsets[node + 1]! - adjacency.offsets[node]!;
}

/** Builds CSR adjacency from parallel endpoint lists (in the given order). */
export function buildAdjacency(size: number, from: Int32Array, to: Int32Array, count: number): Adjacency {
  const offsets = int32Array(size + 1);
  for (let e = 0; e < count; e++) offsets[from[e]! + 1]!++;
  for (let i = 0; i < size; i++) offsets[i + 1]! += offsets[i]!;
  const fill = int32Array(size);
  fill.set(offsets.subarray(0, size));
  const targets = int32Array(count);
  for (let e = 0; e < count; e++) targets[fill[from[e]!]!++] = to[e]!;
  return { offsets, targets };
}

/** Marks every node reachable from `roots` by following `adjacency`. */
export function reachableFrom(
  roots: Iterable<number>,
  adjacency: Adjacency,
  size: number,
  extra?: ReadonlyMap<number, readonly number[]>,
): Uint8Array {
  const seen = uint8Array(size);
  // A node is pushed once at most (when first seen), so `size` entries always suffice.
  const stack = int32Array(size);
  let top = 0;
  for (const root of roots) {
    if (seen[root]) continue;
    seen[root] = 1;
    stack[top++] = root;
  }
  const hasExtra = extra !== undefined && extra.size > 0;
  const { offsets, targets } = adjacency;
  while (top > 0) {
    const node = stack[--top]!;
    for (let k = offsets[node]!, end = offsets[node + 1]!; k < end; k++) {
      const next = targets[k]!;
      if (seen[next]) continue;
      seen[next] = 1;
      stack[top++] = next;
    }
    const more = hasExtra ? extra.get(node) : undefined;
    if (more)
      for (const next of more) {
        if (seen[next]) continue;
        seen[next] = 1;
        stack[top++] = next;
      }
  }
  return seen;
}

/**
 * Strongly connected components with more than one node (Tarjan's algorithm, with an
 * explicit stack). Each component lists its members.
 */
export function cyclicComponents(successors: Adjacency): number[][] {
  const size = successors.offsets.length - 1;
  const index = int32Array(size).fill(-1);
  const lowLink = int32Array(size);
  const onStack = uint8Array(size);
  const componentStack: number[] = [];
  const components: number[][] = [];
  const callNode: number[] = [];
  const callEdge: number[] = [];
  let counter = 0;
  for (let start = 0; start < size; start++) {
    if (index[start] !== -1) continue;
    callNode.push(start);
    callEdge.push(0);
    index[start] = lowLink[start] = counter++;
    componentStack.push(start);
    onStack[start] = 1;
    while (callNode.length) {
      const top = callNode.length - 1;
      const node = callNode[top]!;
      const edgeIndex = callEdge[top]!;
      if (edgeIndex < successors.offsets[node + 1]! - successors.offsets[node]!) {
        callEdge[top] = edgeIndex + 1;
        const next = successors.targets[successors.offsets[node]! + edgeIndex]!;
        if (index[next] === -1) {
          index[next] = lowLink[next] = counter++;
          componentStack.push(next);
          onStack[next] = 1;
          callNode.push(next);
          callEdge.push(0);
        } else if (onStack[next]) {
          lowLink[node] = Math.min(lowLink[node]!, index[next]!);
        }
        continue;
      }
      callNode.pop();
      callEdge.pop();
      if (callNode.length) {
        const parent = callNode[callNode.length - 1]!;
        lowLink[parent] = Math.min(lowLink[parent]!, lowLink[node]!);
      }
      if (lowLink[node] === index[node]) {
        const members: number[] = [];
        let member: number;
        do {
          member = componentStack.pop()!;
          onStack[member] = 0;
          members.push(member);
        } while (member !== node);
        if (members.length > 1) components.push(members);
      }
    }
  }
  return components;
}

/**
 * Splits a set of nodes into regions, each led by one head: a member with no predecessor
 * inside the set (or, for regions that are pure cycles, a member chosen by `order`).
 * Every member belongs to the region of the first head (in `order`) that reaches it.
 * Used to name an unreachable or dead-end region once instead of once per node.
 */
export function regions(
  members: Uint8Array,
  forward: Adjacency,
  backward: Adjacency,
  order: readonly number[],
): { head: number; rest: number[] }[] {
  const assigned = uint8Array(members.length);
  const result: { head: number; rest: number[] }[] = [];
  const claim = (head: number) => {
    const rest: number[] = [];
    assigned[head] = 1;
    const stack = [head];
    while (stack.length) {
      const node = stack.pop()!;
      for (let k = forward.offsets[node]!, end = forward.offsets[node + 1]!; k < end; k++) {
        const next = forward.targets[k]!;
        if (!members[next] || assigned[next]) continue;
        assigned[next] = 1;
        rest.push(next);
        stack.push(next);
      }
    }
    rest.sort((a, b) => a - b);
    result.push({ head, rest });
  };
  for (const node of order) {
    if (!members[node] || assigned[node]) continue;
    let isHead = true;
    for (let k = backward.offsets[node]!, end = backward.offsets[node + 1]!; k < end; k++)
      if (members[backward.targets[k]!]) {
        isHead = false;
        break;
      }
    if (isHead) claim(node);
  }
  for (const node of order) if (members[node] && !assigned[node]) claim(node);
  return result;
}
