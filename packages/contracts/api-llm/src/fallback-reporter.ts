// Warn once per (preference, actual model) pair: a missing preferred model would otherwise warn on every turn.
import { type TextRef, textRef } from '@aalis/core';
import './llm-catalogue.js';
import type { ModelFallback } from './resolve-model.js';

export interface FallbackReporter {
  /** Calls `warn` the first time this (scope, preference, actual) combination is seen; returns whether it did. */
  report(fallback: ModelFallback | undefined): boolean;
}

export function fallbackText(fallback: ModelFallback): TextRef {
  return textRef(`llm.fallback.${fallback.scope}`, { preference: fallback.preference, actual: fallback.actual });
}

export function createFallbackReporter({
  warn,
}: {
  warn: (text: TextRef, fallback: ModelFallback) => void;
}): FallbackReporter {
  const seen = new Set<string>();
  return {
    report(fallback) {
      if (!fallback) return false;
      const key = JSON.stringify([fallback.scope, fallback.preference, fallback.actual]);
      if (seen.has(key)) return false;
      seen.add(key);
      warn(fallbackText(fallback), fallback);
      return true;
    },
  };
}
