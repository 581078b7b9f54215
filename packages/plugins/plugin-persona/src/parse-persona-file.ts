// Parses one persona file. A YAML error or a missing/invalid field gives AALIS_PERSONA_INVALID with the file,
// line and column (1-based) and what is wrong, in the reader's locale.
import { PERSONA_ID_PATTERN, type Persona, personaErrors } from '@aalis/api-persona';
import { type AalisError, type Locale, type TextRef, translate } from '@aalis/core';
import { isMap, isScalar, LineCounter, type Node, parseDocument, type YAMLMap } from 'yaml';
import './persona-texts.js';

const FIELDS = ['id', 'name', 'prompt', 'structuredOutput'] as const;
const REQUIRED = ['id', 'name', 'prompt'] as const;

export type ParsedPersonaFile = { ok: true; persona: Persona } | { ok: false; error: AalisError };

export function parsePersonaFile({
  file,
  text,
  locale,
}: {
  file: string;
  text: string;
  locale: Locale;
}): ParsedPersonaFile {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const invalid = (offset: number, problem: TextRef): ParsedPersonaFile => {
    const { line, col } = lineCounter.linePos(offset);
    return {
      ok: false,
      error: personaErrors.AALIS_PERSONA_INVALID({ file, line, column: col, problem: translate(problem, locale) }),
    };
  };
  const syntax = document.errors[0];
  if (syntax) {
    const message = syntax.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    return invalid(syntax.pos[0], { key: 'persona.problem.syntax', params: { message } });
  }
  const root = document.contents;
  if (root === null || (isScalar(root) && (root.value === null || root.value === ''))) {
    return invalid(0, { key: 'persona.problem.empty' });
  }
  if (!isMap(root)) {
    const received = Array.isArray((root as { items?: unknown }).items) ? 'a list' : 'a single value';
    return invalid(rangeStart(root), { key: 'persona.problem.notMapping', params: { received } });
  }
  const map = root as YAMLMap<unknown, unknown>;
  const values = new Map<string, { node: Node | null; keyOffset: number }>();
  for (const pair of map.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    const keyOffset = rangeStart(pair.key as Node);
    if (!(FIELDS as readonly string[]).includes(key)) {
      return invalid(keyOffset, { key: 'persona.problem.unknownField', params: { field: key } });
    }
    values.set(key, { node: (pair.value as Node | null) ?? null, keyOffset });
  }
  for (const field of REQUIRED) {
    const entry = values.get(field);
    if (!entry) return invalid(rangeStart(map), { key: 'persona.problem.missing', params: { field } });
    const value = isScalar(entry.node) ? entry.node.value : undefined;
    if (typeof value !== 'string' || value.trim() === '') {
      const offset = entry.node ? rangeStart(entry.node) : entry.keyOffset;
      return invalid(offset, { key: 'persona.problem.notString', params: { field } });
    }
  }
  const id = (values.get('id')!.node as { value: string }).value;
  if (!PERSONA_ID_PATTERN.test(id)) {
    return invalid(rangeStart(values.get('id')!.node!), { key: 'persona.problem.badId', params: { id } });
  }
  const persona: Persona = {
    id,
    name: (values.get('name')!.node as { value: string }).value.trim(),
    prompt: (values.get('prompt')!.node as { value: string }).value.trim(),
    file,
  };
  const structured = values.get('structuredOutput');
  if (structured) {
    const schema =
      structured.node && isMap(structured.node) ? (structured.node.toJSON() as Record<string, unknown>) : undefined;
    if (schema?.type !== 'object') {
      return invalid(structured.node ? rangeStart(structured.node) : structured.keyOffset, {
        key: 'persona.problem.structuredOutput',
      });
    }
    persona.structuredOutput = schema;
  }
  return { ok: true, persona };
}

function rangeStart(node: Node | null | undefined): number {
  return node?.range?.[0] ?? 0;
}
