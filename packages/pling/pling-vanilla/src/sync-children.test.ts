import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { syncChildren } from './sync-children.js';

/** Just enough of a DOM parent for syncChildren, counting every insert and removal. */
class FakeParent {
  children: FakeNode[] = [];
  inserts: string[] = [];
  removals: string[] = [];
  get firstChild(): FakeNode | null {
    return this.children[0] ?? null;
  }
  insertBefore(node: FakeNode, before: FakeNode | null): void {
    this.detach(node);
    const at = before ? this.children.indexOf(before) : this.children.length;
    this.children.splice(at, 0, node);
    node.parent = this;
    this.inserts.push(node.name);
  }
  removeChild(node: FakeNode): void {
    this.detach(node);
    this.removals.push(node.name);
  }
  private detach(node: FakeNode): void {
    const at = this.children.indexOf(node);
    if (at >= 0) this.children.splice(at, 1);
    node.parent = undefined;
  }
}

class FakeNode {
  parent: FakeParent | undefined;
  constructor(readonly name: string) {}
  get nextSibling(): FakeNode | null {
    if (!this.parent) return null;
    return this.parent.children[this.parent.children.indexOf(this) + 1] ?? null;
  }
}

function setUp(initial: string[]) {
  const parent = new FakeParent();
  const nodes = new Map<string, FakeNode>();
  const node = (name: string) => {
    if (!nodes.has(name)) nodes.set(name, new FakeNode(name));
    return nodes.get(name)!;
  };
  parent.children = initial.map(node);
  for (const child of parent.children) child.parent = parent;
  const sync = (names: string[]) => {
    parent.inserts = [];
    parent.removals = [];
    syncChildren(parent as unknown as Node, names.map(node) as unknown as Node[]);
    return parent.children.map((child) => child.name);
  };
  return { parent, sync };
}

describe('syncChildren', () => {
  it('touches nothing when the children are already in order', () => {
    const { parent, sync } = setUp(['header', 'messages', 'form']);
    expect(sync(['header', 'messages', 'form'])).toEqual(['header', 'messages', 'form']);
    expect([parent.inserts, parent.removals]).toEqual([[], []]);
  });

  it('inserts and removes a part without moving its neighbours (the form keeps focus)', () => {
    const { parent, sync } = setUp(['header', 'messages', 'form']);
    expect(sync(['header', 'notice', 'messages', 'error', 'form'])).toEqual([
      'header',
      'notice',
      'messages',
      'error',
      'form',
    ]);
    expect(parent.inserts).toEqual(['notice', 'error']);
    expect(sync(['header', 'messages', 'form'])).toEqual(['header', 'messages', 'form']);
    expect([parent.inserts, parent.removals]).toEqual([[], ['notice', 'error']]);
  });

  it('moves only what is out of place', () => {
    const { parent, sync } = setUp(['a', 'b', 'c', 'd']);
    expect(sync(['b', 'a', 'c', 'd'])).toEqual(['b', 'a', 'c', 'd']);
    expect(parent.inserts).toEqual(['b']);
  });

  it('ends with exactly the wanted nodes in order, from any start (property)', () => {
    const names = fc.uniqueArray(fc.constantFrom<string>('a', 'b', 'c', 'd', 'e', 'f', 'g'), { maxLength: 7 });
    fc.assert(
      fc.property(names, names, (initial, wanted) => {
        const { parent, sync } = setUp(initial);
        expect(sync(wanted)).toEqual(wanted);
        // A node present before and after is moved at most once, and never when the kept nodes keep their order.
        const kept = initial.filter((name) => wanted.includes(name));
        const keptInOrder = kept.join() === wanted.filter((name) => initial.includes(name)).join();
        if (keptInOrder) expect(parent.inserts.filter((name) => initial.includes(name))).toEqual([]);
        expect(new Set(parent.inserts).size).toBe(parent.inserts.length);
      }),
    );
  });
});
