// Reading aalis.config.yaml: YAML parsed with positions, so a problem can name the line and column of any path.
import { describeReceived } from '@aalis/core';
import { isMap, isSeq, LineCounter, type Node, parseDocument } from 'yaml';
import type { ConfigProblem, ProblemSource } from './config-problems.js';

export type ConfigPath = readonly (string | number)[];

export interface ParsedFile {
  value: Record<string, unknown>;
  /** Where a path is in the file (the key for map entries), or the closest existing ancestor. */
  locate(path: ConfigPath): ProblemSource;
}

/** Parses the file's YAML; an empty file is an empty mapping. */
export function parseConfigText(file: string, text: string): ParsedFile | { problems: ConfigProblem[] } {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  const error = document.errors[0];
  if (error) {
    const position = lineCounter.linePos(error.pos[0]);
    const reason = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    return { problems: [{ kind: 'syntax', source: { file, line: position.line, column: position.col }, reason }] };
  }
  const value: unknown = document.toJS() ?? {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      problems: [{ kind: 'notObject', source: { file, line: 1, column: 1 }, received: describeReceived(value) }],
    };
  }
  const locate = (path: ConfigPath): ProblemSource => {
    let node: unknown = document.contents;
    let offset: number | undefined;
    for (const segment of path) {
      if (isMap(node)) {
        const pair = node.items.find((item) => keyText(item.key) === String(segment));
        if (!pair) break;
        offset = (pair.key as Node | null)?.range?.[0] ?? offset;
        node = pair.value;
      } else if (isSeq(node) && typeof segment === 'number') {
        const item = node.items[segment] as Node | undefined;
        if (!item) break;
        offset = item.range?.[0] ?? offset;
        node = item;
      } else {
        break;
      }
    }
    if (offset === undefined) return { file };
    const position = lineCounter.linePos(offset);
    return { file, line: position.line, column: position.col };
  };
  return { value: value as Record<string, unknown>, locate };
}

function keyText(key: unknown): string | undefined {
  if (key && typeof key === 'object' && 'value' in key) return String((key as { value: unknown }).value);
  return key === null || key === undefined ? undefined : String(key);
}

/** 'a.b.0.c' → ['a', 'b', 0, 'c'] */
export function splitPath(path: string): (string | number)[] {
  if (path === '') return [];
  return path.split('.').map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));
}
