// Turns a call's raw arguments into an object, or the coded error the model reads (first 200 characters quoted).
import { toolsErrors } from '@aalis/api-tools';
import type { AalisError } from '@aalis/core';

const EXCERPT_LENGTH = 200;

export type ParsedArguments = { ok: true; value: Record<string, unknown> } | { ok: false; error: AalisError };

/** '' (or only whitespace) means no arguments; otherwise a JSON object is required. */
export function parseArguments({ name, raw }: { name: string; raw: unknown }): ParsedArguments {
  let value: unknown = raw;
  if (typeof raw === 'string') {
    if (raw.trim() === '') return { ok: true, value: {} };
    try {
      value = JSON.parse(raw);
    } catch (cause) {
      const reason = cause instanceof Error ? cause.message : String(cause);
      return { ok: false, error: notAnObject(name, raw, `invalid JSON: ${reason}`) };
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    return {
      ok: false,
      error: notAnObject(name, typeof raw === 'string' ? raw : safeJson(raw), `top level is ${kind}`),
    };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

function notAnObject(name: string, text: string, reason: string): AalisError {
  const excerpt = text.length > EXCERPT_LENGTH ? `${text.slice(0, EXCERPT_LENGTH)}…` : text;
  return toolsErrors.AALIS_TOOLS_ARGUMENTS_NOT_JSON({ name, reason, excerpt });
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
