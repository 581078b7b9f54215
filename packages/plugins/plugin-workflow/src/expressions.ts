// The expression syntax of workflow files: JSONata (a maintained, documented query language for JSON that never
// evaluates JavaScript), written `{{ … }}` inside strings, or bare in `when` and a condition's `if`.
// What an expression sees: `inputs`, `nodes.<id>.output`, `nodes.<id>.status`, and in a map node `item` and `index`.
import type { Template } from '@aalis/api-workflow';
import jsonata from 'jsonata';

export interface ExpressionScope {
  readonly inputs: Readonly<Record<string, unknown>>;
  readonly nodes: Readonly<Record<string, { readonly output?: unknown; readonly status: string }>>;
  readonly item?: unknown;
  readonly index?: number;
  readonly run: { readonly id: string; readonly workflow: string };
}

/** A problem in an expression: where in the string (0-based) and what. */
export interface ExpressionProblem {
  readonly offset: number;
  readonly message: string;
}

const PART = /\{\{([\s\S]*?)\}\}/g;

const cache = new Map<string, jsonata.Expression>();

function compile(source: string): jsonata.Expression {
  let expression = cache.get(source);
  if (!expression) {
    expression = jsonata(source);
    // Bounded: a process sees the expressions of its workflow files, a few hundred at most.
    if (cache.size > 2000) cache.clear();
    cache.set(source, expression);
  }
  return expression;
}

function problemOf(error: unknown, offset: number): ExpressionProblem {
  const detail = error as { position?: number; message?: string };
  return { offset: offset + Math.max(0, (detail.position ?? 1) - 1), message: detail.message ?? String(error) };
}

/** The expression parts of a template string: each `{{ … }}` with where its text starts. */
function partsOf(text: string): { source: string; offset: number; whole: boolean }[] {
  const parts: { source: string; offset: number; whole: boolean }[] = [];
  for (const match of text.matchAll(PART)) {
    const source = match[1]!;
    parts.push({ source, offset: match.index + 2, whole: match[0].length === text.trim().length });
  }
  return parts;
}

/** Checks a bare expression (a `when`, a condition's `if`): its syntax problem, or undefined. */
export function checkExpression(source: string): ExpressionProblem | undefined {
  const inner = partsOf(source);
  try {
    if (inner.length > 0) for (const part of inner) compile(part.source);
    else compile(source);
    return undefined;
  } catch (error) {
    return problemOf(error, inner[0]?.offset ?? 0);
  }
}

/** Checks every `{{ … }}` of a template string. */
export function checkTemplateText(text: string): ExpressionProblem | undefined {
  for (const part of partsOf(text)) {
    try {
      compile(part.source);
    } catch (error) {
      return problemOf(error, part.offset);
    }
  }
  return undefined;
}

/** The names an expression reads as `inputs.<name>` (for the check that every input it uses is declared). */
export function inputsReadBy(text: string): string[] {
  return [...text.matchAll(/\binputs\.([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1]!);
}

/** The node ids an expression reads as `nodes.<id>` (each must be a node the reader needs, directly or not). */
export function nodesReadBy(text: string): string[] {
  return [...text.matchAll(/\bnodes\.([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1]!);
}

/** Evaluates a bare expression. */
export async function evaluateExpression(source: string, scope: ExpressionScope): Promise<unknown> {
  const inner = partsOf(source);
  if (inner.length === 1 && inner[0]!.whole) return compile(inner[0]!.source).evaluate(scope);
  if (inner.length > 0) return renderText(source, scope);
  return compile(source).evaluate(scope);
}

function asText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** A template string: a lone `{{ x }}` keeps x's value (a list stays a list); mixed text becomes a string. */
async function renderText(text: string, scope: ExpressionScope): Promise<unknown> {
  const parts = partsOf(text);
  if (parts.length === 0) return text;
  if (parts.length === 1 && parts[0]!.whole) return compile(parts[0]!.source).evaluate(scope);
  let result = '';
  let last = 0;
  for (const match of text.matchAll(PART)) {
    result += text.slice(last, match.index);
    result += asText(await compile(match[1]!).evaluate(scope));
    last = match.index + match[0].length;
  }
  return result + text.slice(last);
}

/** Renders a template: strings through their expressions, lists and objects member by member. */
export async function renderTemplate(template: Template | undefined, scope: ExpressionScope): Promise<unknown> {
  if (typeof template === 'string') return renderText(template, scope);
  if (Array.isArray(template)) return Promise.all(template.map((entry) => renderTemplate(entry, scope)));
  if (template !== null && typeof template === 'object') {
    const entries = await Promise.all(
      Object.entries(template).map(async ([key, value]) => [key, await renderTemplate(value, scope)] as const),
    );
    return Object.fromEntries(entries);
  }
  return template;
}

/** Truthiness of a condition's value as people read it: false, null, 0, '' and [] are false. */
export function isTrue(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return Boolean(value);
}
