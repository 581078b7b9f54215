// The session list as a tree: rooms and direct sessions at the top, child sessions nested under their parent,
// pinned ones first, then the most recently active, filtered by a search that keeps the ancestors of every match (so a matching child
// still shows where it lives) and the children of every match. Pure.
import type { SessionSummary } from '@aalis/session-client';

export interface SessionNode {
  session: SessionSummary;
  depth: number;
  children: SessionNode[];
  /** The search matched this session itself (not only a descendant). */
  matched: boolean;
}

function normalise(text: string): string {
  return text.normalize('NFKC').toLocaleLowerCase();
}

function matches(session: SessionSummary, query: string): boolean {
  if (query === '') return true;
  return [session.title ?? '', session.id, session.platform, session.venue ?? '', session.kind].some((field) =>
    normalise(field).includes(query),
  );
}

/** The nested list for `query` (blank: everything). A session whose parent is unknown is shown at the top. */
export function sessionTree(sessions: readonly SessionSummary[], query = ''): SessionNode[] {
  const wanted = normalise(query.trim());
  const byId = new Map(sessions.map((session) => [session.id, session]));
  const childrenOf = new Map<string, SessionSummary[]>();
  const roots: SessionSummary[] = [];
  for (const session of sessions) {
    const parent = session.parentId !== undefined ? byId.get(session.parentId) : undefined;
    if (parent && parent.id !== session.id) {
      const siblings = childrenOf.get(parent.id) ?? [];
      siblings.push(session);
      childrenOf.set(parent.id, siblings);
    } else {
      roots.push(session);
    }
  }
  const seen = new Set<string>();
  const build = (session: SessionSummary, depth: number, inMatch = false): SessionNode | undefined => {
    if (seen.has(session.id)) return undefined; // a parent cycle in bad data must not loop
    seen.add(session.id);
    const matched = matches(session, wanted);
    const children = byRecency(childrenOf.get(session.id) ?? [])
      .map((child) => build(child, depth + 1, inMatch || matched))
      .filter((node): node is SessionNode => node !== undefined);
    if (!matched && !inMatch && children.length === 0) return undefined;
    return { session, depth, children, matched };
  };
  const nodes = byRecency(roots)
    .map((root) => build(root, 0))
    .filter((node): node is SessionNode => node !== undefined);
  // Sessions no root reaches (a parent cycle in bad data) are shown at the top rather than lost.
  for (const session of byRecency(sessions.filter((candidate) => !seen.has(candidate.id)))) {
    const node = build(session, 0);
    if (node) nodes.push(node);
  }
  return nodes;
}

/** Pinned first, then most recently active first (as `sessions.list` orders them). */
function byRecency(sessions: SessionSummary[]): SessionSummary[] {
  return [...sessions].sort(
    (a, b) =>
      Number(b.pinned === true) - Number(a.pinned === true) || b.updatedAt - a.updatedAt || a.id.localeCompare(b.id),
  );
}

/** The tree in display order, one row per session (what a flat list with indentation renders). */
export function flattenTree(nodes: readonly SessionNode[]): SessionNode[] {
  const rows: SessionNode[] = [];
  const walk = (list: readonly SessionNode[]) => {
    for (const node of list) {
      rows.push(node);
      walk(node.children);
    }
  };
  walk(nodes);
  return rows;
}

/** A session and every descendant (what a deletion removes). */
export function descendantsOf(sessions: readonly SessionSummary[], id: string): string[] {
  const result: string[] = [];
  const walk = (parentId: string) => {
    for (const session of sessions) {
      if (session.parentId === parentId && !result.includes(session.id)) {
        result.push(session.id);
        walk(session.id);
      }
    }
  };
  walk(id);
  return result;
}
