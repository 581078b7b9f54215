// One DOM node per item key, kept across renders: `sync(items)` creates the nodes of new keys, updates the nodes
// of known keys in place and forgets the keys that left, returning the nodes in the items' order (for
// syncChildren). The lists of the dock (messages, confirmations, handoffs, operations) are built on it.

export interface KeyedNodesOptions<Item, N> {
  key(item: Item): string;
  create(item: Item): N;
  /** Brings an existing node up to date; called after create too, so create may build an empty shell. */
  update(node: N, item: Item): void;
}

export class KeyedNodes<Item, N> {
  private nodes = new Map<string, N>();

  constructor(private readonly options: KeyedNodesOptions<Item, N>) {}

  sync(items: readonly Item[]): N[] {
    const next = new Map<string, N>();
    for (const item of items) {
      const key = this.options.key(item);
      if (next.has(key)) continue; // a duplicate key would need the same node twice: keep the first
      const node = this.nodes.get(key) ?? this.options.create(item);
      this.options.update(node, item);
      next.set(key, node);
    }
    this.nodes = next;
    return [...next.values()];
  }

  /** The node currently kept for `key`. */
  get(key: string): N | undefined {
    return this.nodes.get(key);
  }
}
