// One error base class for every package: a stable code, structured details, retryability, and a message that
// says how to fix the problem. `isInstance` works across duplicated package copies (it checks a global marker).
import { defineCatalogue, type Locale, type MessageCatalogue, type TextRef, translate } from './i18n.js';

const MARKER = Symbol.for('aalis.error');

export interface AalisErrorOptions {
  details?: Record<string, unknown>;
  statusCode?: number;
  isRetryable?: boolean;
  cause?: unknown;
}

export class AalisError extends Error {
  readonly [MARKER] = true;
  readonly code: string;
  readonly text: TextRef;
  readonly details: Record<string, unknown>;
  readonly statusCode: number | undefined;
  readonly isRetryable: boolean;

  constructor(code: string, text: TextRef, options: AalisErrorOptions = {}) {
    super(translate(text, 'en'), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AalisError';
    this.code = code;
    this.text = text;
    this.details = options.details ?? {};
    this.statusCode = options.statusCode;
    this.isRetryable = options.isRetryable ?? false;
  }

  /** The message in a reader's locale. */
  localized(locale: Locale): string {
    return translate(this.text, locale);
  }

  static isInstance(value: unknown): value is AalisError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }

  static hasCode(value: unknown, code: string): value is AalisError {
    return AalisError.isInstance(value) && value.code === code;
  }
}

type Params = Record<string, string | number>;

export interface ErrorFactory {
  readonly code: string;
  (params?: Params, options?: AalisErrorOptions): AalisError;
  /** Whether a value is an AalisError with this code. */
  is(value: unknown): value is AalisError;
}

/**
 * Defines a catalogue of coded errors. Each entry has zh-CN and en message templates; codes are never reused.
 * Returns one factory per code: `errors.AALIS_X({ plugin: 'a' })`.
 */
export function defineErrors<Code extends string>(
  entries: Record<Code, { 'zh-CN': string; en: string; statusCode?: number; isRetryable?: boolean }>,
): Record<Code, ErrorFactory> {
  const catalogue: { 'zh-CN': Record<string, string>; en: Record<string, string> } = { 'zh-CN': {}, en: {} };
  for (const [code, entry] of Object.entries(entries) as [Code, (typeof entries)[Code]][]) {
    catalogue['zh-CN'][`error.${code}`] = entry['zh-CN'];
    catalogue.en[`error.${code}`] = entry.en;
  }
  defineCatalogue(catalogue as MessageCatalogue);
  const factories = {} as Record<Code, ErrorFactory>;
  for (const [code, entry] of Object.entries(entries) as [Code, (typeof entries)[Code]][]) {
    const factory = ((params?: Params, options: AalisErrorOptions = {}) =>
      new AalisError(code, params ? { key: `error.${code}`, params } : { key: `error.${code}` }, {
        statusCode: entry.statusCode,
        isRetryable: entry.isRetryable,
        ...options,
        details: { ...params, ...options.details },
      })) as ErrorFactory;
    Object.defineProperty(factory, 'code', { value: code });
    factory.is = (value: unknown): value is AalisError => AalisError.hasCode(value, code);
    factories[code] = factory;
  }
  return factories;
}

/** What went wrong, for a person: a coded error in the reader's language, any other error's own message. */
export function reasonOf(error: unknown, locale: Locale): string {
  if (AalisError.isInstance(error)) return error.localized(locale);
  return error instanceof Error ? error.message : String(error);
}
