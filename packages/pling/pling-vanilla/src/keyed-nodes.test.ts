import { describe, expect, it } from 'vitest';
import { KeyedNodes } from './keyed-nodes.js';

interface Item {
  key: string;
  text: string;
}

function track() {
  const created: string[] = [];
  const updated: string[] = [];
  const nodes = new KeyedNodes<Item, { key: string; text: string }>({
    key: (item) => item.key,
    create: (item) => {
      created.push(item.key);
      return { key: item.key, text: '' };
    },
    update: (node, item) => {
      updated.push(item.key);
      node.text = item.text;
    },
  });
  return { nodes, created, updated };
}

describe('KeyedNodes', () => {
  it('creates a node per new key, reuses and updates known keys, forgets keys that left', () => {
    const { nodes, created, updated } = track();
    const first = nodes.sync([
      { key: 'a', text: 'A' },
      { key: 'b', text: 'B' },
    ]);
    const second = nodes.sync([
      { key: 'b', text: 'B2' },
      { key: 'c', text: 'C' },
    ]);
    expect(second[0]).toBe(first[1]);
    expect(second.map((node) => node.text)).toEqual(['B2', 'C']);
    expect(created).toEqual(['a', 'b', 'c']);
    expect(updated).toEqual(['a', 'b', 'b', 'c']);
    expect(nodes.get('a')).toBeUndefined();
    const third = nodes.sync([{ key: 'a', text: 'again' }]);
    expect(third[0]).not.toBe(first[0]);
    expect(created).toEqual(['a', 'b', 'c', 'a']);
  });

  it('keeps the first of duplicate keys, so one node is never placed twice', () => {
    const { nodes } = track();
    const result = nodes.sync([
      { key: 'a', text: 'first' },
      { key: 'a', text: 'second' },
    ]);
    expect(result.map((node) => node.text)).toEqual(['first']);
  });
});
