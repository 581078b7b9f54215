import { describe, expect, it } from 'vitest';
import { sharedByKey } from './shared-by-key.js';

class Connection {
  isOpen = true;
  constructor(readonly key: string) {}
}

describe('sharedByKey', () => {
  it('shares one resource per key and hands it back to close with the last release', () => {
    const open = sharedByKey((key) => new Connection(key));
    const first = open('a');
    const second = open('a');
    expect(second.resource).toBe(first.resource);
    expect(open('b').resource).not.toBe(first.resource);
    expect(first.release()).toBeUndefined();
    expect(first.release()).toBeUndefined();
    expect(second.release()).toBe(first.resource);
  });

  it('opens a new resource once the shared one was closed', () => {
    const open = sharedByKey((key) => new Connection(key));
    const first = open('a');
    first.resource.isOpen = false;
    const next = open('a');
    expect(next.resource).not.toBe(first.resource);
    expect(next.release()).toBe(next.resource);
    // The old lease's last release must not forget the new resource.
    expect(first.release()).toBe(first.resource);
    expect(open('a').resource).toBe(open('a').resource);
  });
});
