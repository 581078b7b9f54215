// Makes a parent's children exactly `nodes`, in order. Unwanted nodes are removed first and a node is moved only
// when it is out of place, so an element whose neighbours come and go is never moved — a moved element loses
// focus, and the dock's textarea must keep it. Nodes already in position are not touched.

export function syncChildren(parent: Node, nodes: readonly Node[]): void {
  const wanted = new Set(nodes);
  let cursor: ChildNode | null = parent.firstChild;
  const dropUnwanted = () => {
    while (cursor && !wanted.has(cursor)) {
      const next: ChildNode | null = cursor.nextSibling;
      parent.removeChild(cursor);
      cursor = next;
    }
  };
  for (const node of nodes) {
    dropUnwanted();
    if (node === cursor) cursor = cursor.nextSibling;
    else parent.insertBefore(node, cursor);
  }
  dropUnwanted();
}
