// Normalising what a handler returned into a ToolResult, and building error results from coded errors.
import { AalisError, type Locale, translate } from '@aalis/core';
import type { ToolResult } from './tool.js';

const RESULT_KEYS = new Set(['content', 'isError', 'code', 'attachments', 'metadata']);

/** Whether a value is shaped exactly like a ToolResult (string content, no keys beyond the ToolResult ones). */
export function isToolResult(value: unknown): value is ToolResult {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return typeof record.content === 'string' && Object.keys(record).every((key) => RESULT_KEYS.has(key));
}

/**
 * A handler's return value as a ToolResult: a ToolResult as it is; a string as `{ content }`; undefined/null as
 * `{ content: '' }`; anything else as its JSON text (String(value) when JSON.stringify fails or gives nothing).
 */
export function toToolResult(value: unknown): ToolResult {
  if (isToolResult(value)) return value;
  if (typeof value === 'string') return { content: value };
  if (value === undefined || value === null) return { content: '' };
  try {
    const text = JSON.stringify(value);
    if (text !== undefined) return { content: text };
  } catch {
    // circular structures, BigInt: fall through to String()
  }
  return { content: String(value) };
}

/** An error result from a coded error (or any thrown value), in the given locale. */
export function errorResult(error: unknown, locale: Locale): ToolResult {
  if (AalisError.isInstance(error)) return { content: error.localized(locale), isError: true, code: error.code };
  const reason = error instanceof Error ? error.message : String(error);
  return { content: translate(reason, locale), isError: true };
}
