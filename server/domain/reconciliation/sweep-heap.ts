import { compareForAssignment, type Assignable } from './assignment.ts';

/** A binary heap in assignment order (`compareForAssignment`): its top is the pair greedy takes first. */
export class AssignmentHeap<T extends Assignable> {
  private items: T[] = [];

  get size(): number {
    return this.items.length;
  }

  get top(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    const heap = this.items;
    let i = heap.length;
    heap.push(item);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(item, heap[parent]!)) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = item;
  }

  /** Removes the top. */
  pop(): void {
    const heap = this.items;
    const last = heap.pop()!;
    if (heap.length === 0) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= heap.length) break;
      const r = l + 1;
      const child = r < heap.length && before(heap[r]!, heap[l]!) ? r : l;
      if (!before(heap[child]!, last)) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = last;
  }

  clear(): void {
    this.items = [];
  }
}

function before(a: Assignable, b: Assignable): boolean {
  return compareForAssignment(a, b) < 0;
}
