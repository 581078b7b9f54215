// Personas with a structured-output schema (plugin-agent.zh.md 「保存」, 「发送」): the reply must be a JSON object
// following the schema; the stored content is the envelope as written, the visible text is decoded from it. A reply
// that does not follow it is retried with feedback as the last message (format retries), never dispatched.
import { describeViolations, type JsonSchema, validateJsonSchema } from '@aalis/api-tools';
import { type I18n, textRef } from '@aalis/core';

/** The envelope property holding the visible text, in order of preference. */
export const VISIBLE_FIELDS = ['reply', 'content', 'text', 'message'] as const;

export function structuredOutputInstruction({ i18n, schema }: { i18n: I18n; schema: Record<string, unknown> }): string {
  return i18n.t(textRef('agent.structured.instruction', { schema: JSON.stringify(schema) }));
}

export type DecodedEnvelope = { ok: true; visible: string } | { ok: false; problem: string };

export function decodeEnvelope({
  i18n,
  text,
  schema,
}: {
  i18n: I18n;
  text: string;
  schema: Record<string, unknown>;
}): DecodedEnvelope {
  const json = stripFence(text.trim());
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return { ok: false, problem: i18n.t(textRef('agent.structured.notJson')) };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, problem: i18n.t(textRef('agent.structured.notObject')) };
  }
  const violations = validateJsonSchema(schema as JsonSchema, value);
  if (violations.length > 0) return { ok: false, problem: describeViolations({ violations, locale: i18n.locale }) };
  const record = value as Record<string, unknown>;
  const field = VISIBLE_FIELDS.find((name) => typeof record[name] === 'string');
  return { ok: true, visible: field ? (record[field] as string) : '' };
}

function stripFence(text: string): string {
  const fenced = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/.exec(text);
  return fenced ? fenced[1]!.trim() : text;
}
