// Writing one key of aalis.config.yaml back: the yaml package's Document API finds the nodes whose values change
// and where they are in the text, and only those bytes are replaced (a scalar in place, an entry's lines removed, new
// entries inserted after the last one at the same indentation). Everything else — comments and their spacing, key
// order, quoting, flow or block style — stays byte for byte as written (re-printing the whole document would not
// keep the spacing before comments or which entry a comment line belongs to).

import { createHash } from 'node:crypto';
import type { ConfigPath } from '@aalis/api-host-config';
import { isPlainObject } from '@aalis/schema-message';
import { isMap, isScalar, isSeq, type Node, type Pair, parseDocument, Scalar, stringify } from 'yaml';

/** The revision of a configuration text: a hash of its bytes, so any edit (a comment too) changes it. */
export function revisionOf(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 20);
}

/** The value at `path` of a configuration text (undefined when absent or the text is not a mapping). */
export function valueAt(text: string, path: ConfigPath): unknown {
  let node: unknown = parseDocument(text).toJS() ?? {};
  for (const segment of path) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string | number, unknown>)[segment];
  }
  return node;
}

interface Splice {
  start: number;
  end: number;
  text: string;
}

/**
 * The text with the value at `path` replaced by `value` (undefined removes the key); parents missing on the way are
 * created. Throws when the text is not valid YAML (the caller read it from a file that started).
 */
export function setInText(text: string, path: ConfigPath, value: unknown): string {
  if (path.length === 0) throw new Error('a configuration key is needed');
  const document = parseDocument(text);
  if (document.errors.length > 0) throw document.errors[0];
  const splices: Splice[] = [];
  const root = document.contents;
  if (!isMap(root) || (root.flow && root.items.length === 0)) {
    // An empty (or non-mapping) document: the key is written as the whole content, comments kept above it.
    if (value === undefined) return text;
    const start = root?.range ? root.range[0] : text.length;
    const end = root?.range ? root.range[1] : text.length;
    const prefix = start > 0 && text[start - 1] !== '\n' ? '\n' : '';
    splices.push({ start, end, text: `${prefix}${blockLines(nest(path, value), 0).join('\n')}\n` });
    return apply(text, splices);
  }
  editAt(text, root, path, value, splices);
  return apply(text, splices);
}

function editAt(
  text: string,
  map: Node & { items: Pair[]; flow?: boolean },
  path: ConfigPath,
  value: unknown,
  splices: Splice[],
): void {
  const [segment, ...rest] = path as [string, ...string[]];
  const pair = map.items.find((item) => keyOf(item) === segment);
  if (!pair) {
    if (value === undefined) return;
    splices.push(...insertEntries(text, map, { [segment]: nest(rest, value) } as Record<string, unknown>));
    return;
  }
  if (rest.length === 0) {
    if (value === undefined) splices.push(...removeEntry(text, map, pair));
    else splices.push(...editValue(text, pair, value));
    return;
  }
  const child = pair.value;
  if (isMap(child) && !(child.flow && child.items.length === 0)) {
    editAt(text, child as Node & { items: Pair[]; flow?: boolean }, rest, value, splices);
    return;
  }
  if (value === undefined) return;
  // A parent that is not a mapping (null, false, a scalar) becomes one holding the new key.
  splices.push(...replaceValue(text, pair, nest(rest, value)));
}

/** The splices that make `pair`'s value `value`, touching only what differs. */
function editValue(text: string, pair: Pair, value: unknown): Splice[] {
  const node = pair.value;
  if (isScalar(node) && (value === null || typeof value !== 'object')) {
    if (node.value === value) return [];
    if (node.range && node.value !== null) {
      return [{ start: node.range[0], end: node.range[1], text: scalarText(value, node.type) }];
    }
    return replaceValue(text, pair, value);
  }
  if (isMap(node) && !node.flow && isPlainObject(value)) {
    const wanted = value as Record<string, unknown>;
    const splices: Splice[] = [];
    for (const item of node.items) {
      const key = keyOf(item);
      if (wanted[key] === undefined) splices.push(...removeEntry(text, node as never, item));
      else splices.push(...editValue(text, item, wanted[key]));
    }
    const known = new Set(node.items.map(keyOf));
    const added = Object.fromEntries(
      Object.entries(wanted).filter(([key, entry]) => !known.has(key) && entry !== undefined),
    );
    if (Object.keys(added).length > 0) {
      // New keys go after the last entry that stays; with none staying, the value is written anew.
      const staying = node.items.filter((item) => wanted[keyOf(item)] !== undefined).at(-1);
      if (!staying) return replaceValue(text, pair, value);
      splices.push(...insertEntries(text, node as never, added, staying));
    }
    return splices;
  }
  if (isSeq(node) && !node.flow && Array.isArray(value) && node.items.length > 0 && value.length > 0) {
    const splices: Splice[] = [];
    node.items.forEach((item, index) => {
      if (index >= value.length) splices.push(removeLines(text, item as Node));
      else splices.push(...editItem(text, item as Node, value[index]));
    });
    if (value.length > node.items.length) {
      const last = node.items.at(-1) as Node;
      const at = lineEnd(text, contentEnd(text, last.range![1]));
      const indent = column(text, itemStart(text, last));
      const lines = value.slice(node.items.length).flatMap((entry) => itemLines(entry, indent));
      splices.push({ start: at, end: at, text: `\n${lines.join('\n')}` });
    }
    return splices;
  }
  // A flow collection, or a value of another kind: written anew in the same place.
  const current = node && typeof node === 'object' && 'toJSON' in node ? (node as Node).toJSON() : node;
  if (JSON.stringify(current) === JSON.stringify(value)) return [];
  return replaceValue(text, pair, value);
}

/** An item of a block sequence: scalars in place, flow items and mappings written anew in their place. */
function editItem(text: string, item: Node, value: unknown): Splice[] {
  if (JSON.stringify(item.toJSON()) === JSON.stringify(value)) return [];
  if (isScalar(item) && (value === null || typeof value !== 'object') && item.range) {
    return [{ start: item.range[0], end: item.range[1], text: scalarText(value, item.type) }];
  }
  const start = item.range![0];
  const end = contentEnd(text, item.range![1]);
  if ((isMap(item) || isSeq(item)) && item.flow) {
    return [{ start, end, text: stringify(value, { collectionStyle: 'flow', lineWidth: 0 }).trimEnd() }];
  }
  const indent = column(text, start);
  const [first, ...others] = itemLines(value, indent - 2);
  return [{ start, end, text: [first!.trimStart().slice(2), ...others].join('\n') }];
}

/** Replaces a pair's whole value, after its `key:`. */
function replaceValue(text: string, pair: Pair, value: unknown): Splice[] {
  const key = pair.key as Node;
  const colon = text.indexOf(':', key.range![1]);
  const node = pair.value as Node | null;
  const end = node?.range ? contentEnd(text, node.range[1]) : colon + 1;
  const indent = column(text, key.range![0]);
  const flowParent = text.slice(lineStart(text, key.range![0]), key.range![0]).trim() !== '';
  const wasFlow = (isMap(node) || isSeq(node)) && node.flow === true;
  if (flowParent || wasFlow || !isCollection(value)) {
    return [{ start: colon + 1, end, text: ` ${inlineText(value)}` }];
  }
  // Keep a comment that followed `key:` on its line.
  const sameLineEnd = lineEnd(text, colon);
  const comment = text.slice(colon + 1, sameLineEnd).match(/^\s+#.*/)?.[0] ?? '';
  const lines = blockLines(value, indent + 2);
  return [{ start: colon + 1, end: Math.max(end, sameLineEnd), text: `${comment}\n${lines.join('\n')}` }];
}

function removeEntry(text: string, map: Node & { items: Pair[]; flow?: boolean }, pair: Pair): Splice[] {
  if (map.flow) {
    const remaining = Object.fromEntries(
      map.items.filter((item) => item !== pair).map((item) => [keyOf(item), (item.value as Node | null)?.toJSON?.()]),
    );
    return [{ start: map.range![0], end: contentEnd(text, map.range![1]), text: flowText(remaining) }];
  }
  const key = pair.key as Node;
  const end = (pair.value as Node | null)?.range?.[1] ?? key.range![1];
  return [removeLines(text, { range: [key.range![0], end, end] } as Node)];
}

/** Removes the lines a node spans (from its line's start to the end of its last line). */
function removeLines(text: string, node: Node): Splice {
  const start = lineStart(text, itemStart(text, node));
  const end = lineEnd(text, contentEnd(text, node.range![1]));
  return { start, end: end < text.length ? end + 1 : end, text: '' };
}

function insertEntries(
  text: string,
  map: Node & { items: Pair[]; flow?: boolean },
  entries: Record<string, unknown>,
  after: Pair | undefined = map.items.at(-1) as Pair | undefined,
): Splice[] {
  if (map.flow || map.items.length === 0) {
    const current = (map.toJSON() ?? {}) as Record<string, unknown>;
    return [{ start: map.range![0], end: contentEnd(text, map.range![1]), text: flowText({ ...current, ...entries }) }];
  }
  const last = (after ?? map.items[map.items.length - 1]) as Pair;
  const lastEnd = (last.value as Node | null)?.range?.[1] ?? (last.key as Node).range![1];
  const at = lineEnd(text, contentEnd(text, lastEnd));
  const indent = column(text, (map.items[0]!.key as Node).range![0]);
  return [{ start: at, end: at, text: `\n${entryLines(entries, indent).join('\n')}` }];
}

// --- rendering ---------------------------------------------------------------------------------------------------

function entryLines(entries: Record<string, unknown>, indent: number): string[] {
  return blockLines(entries, indent);
}

function blockLines(value: unknown, indent: number): string[] {
  const pad = ' '.repeat(indent);
  return stringify(value, { lineWidth: 0, indent: 2 })
    .trimEnd()
    .split('\n')
    .map((line) => `${pad}${line}`);
}

function itemLines(value: unknown, indent: number): string[] {
  return blockLines([value], indent);
}

function inlineText(value: unknown): string {
  if (isCollection(value)) return flowText(value);
  return scalarText(value, undefined);
}

function flowText(value: unknown): string {
  return stringify(value, { collectionStyle: 'flow', lineWidth: 0 }).trimEnd();
}

/** A scalar for one line, quoted the way the value it replaces was (a multi-line text as a double-quoted string). */
function scalarText(value: unknown, type: Scalar['type']): string {
  if (typeof value === 'string') {
    if (type === Scalar.QUOTE_DOUBLE || value.includes('\n')) return JSON.stringify(value);
    if (type === Scalar.QUOTE_SINGLE) return `'${value.replaceAll("'", "''")}'`;
  }
  const plain = stringify(value, { lineWidth: 0 }).trimEnd();
  return plain.includes('\n') ? JSON.stringify(value) : plain;
}

// --- positions ---------------------------------------------------------------------------------------------------

function apply(text: string, splices: Splice[]): string {
  let result = text;
  // From the end backwards; at one position a removal goes before an insertion there.
  for (const splice of [...splices].sort((a, b) => b.start - a.start || b.end - a.end)) {
    result = result.slice(0, splice.start) + splice.text + result.slice(splice.end);
  }
  return result;
}

function keyOf(pair: Pair): string {
  return isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
}

/** Where a sequence item starts: its `- ` marker. */
function itemStart(text: string, node: Node): number {
  const start = node.range![0];
  const before = text.slice(lineStart(text, start), start);
  const dash = before.lastIndexOf('-');
  return dash >= 0 && before.slice(dash + 1).trim() === '' ? lineStart(text, start) + dash : start;
}

/** The end of a node's content, before the line breaks a block node's range takes in. */
function contentEnd(text: string, end: number): number {
  let at = end;
  while (at > 0 && (text[at - 1] === '\n' || text[at - 1] === '\r')) at--;
  return at;
}

function lineStart(text: string, at: number): number {
  return text.lastIndexOf('\n', at - 1) + 1;
}

function lineEnd(text: string, at: number): number {
  const end = text.indexOf('\n', at);
  return end < 0 ? text.length : end;
}

function column(text: string, at: number): number {
  return at - lineStart(text, at);
}

function nest(path: ConfigPath, value: unknown): unknown {
  return path.reduceRight<unknown>((inner, segment) => ({ [segment]: inner }), value);
}

function isCollection(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    (Array.isArray(value) ? value.length > 0 : Object.keys(value).length > 0)
  );
}
