// The model providers' connection settings that the providers would otherwise only find at activation — a proxy
// they cannot use (their `proxy` key, or HTTPS_PROXY / HTTP_PROXY for their endpoint) and a caFile that cannot be
// read — checked with the rest of the configuration, so that they too are reported before anything starts.
import { accessSync, constants } from 'node:fs';
import { resolve } from 'node:path';
import { AalisError, describeReceived, type Locale, textRef, translate } from '@aalis/core';
import { resolveProxy } from '@aalis/http-transport/proxy-settings';
import type { ConfigPath } from './config-file.js';
import type { ConfigProblem, ProblemSource } from './config-problems.js';
import type { PlannedPlugin } from './load-config.js';
import './runtime-texts.js';

/** The providers whose sections carry `baseUrl`, `proxy` and `caFile` (the shared HTTP transport's settings). */
const HTTP_PROVIDERS: ReadonlySet<string> = new Set(['llm-openai', 'llm-anthropic']);

export function endpointProblems({
  plugins,
  keyOf,
  sourceOf,
  env,
  locale,
}: {
  plugins: readonly PlannedPlugin[];
  /** The key a plugin's section has under `plugins` (its alias unless the file named it otherwise). */
  keyOf: (plugin: PlannedPlugin) => string;
  sourceOf: (path: ConfigPath) => ProblemSource;
  env: Record<string, string | undefined>;
  locale: Locale;
}): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const plugin of plugins) {
    if (!HTTP_PROVIDERS.has(plugin.slot.alias) || !plugin.slot.schema) continue;
    // With its defaults filled in (the Anthropic endpoint is a default); the section itself passed its schema.
    const section = plugin.slot.schema.validate(plugin.section).value as Record<string, unknown>;
    const at = (key: string): { source: ProblemSource; path: string } => {
      const path = ['plugins', keyOf(plugin), key];
      return { source: sourceOf(path), path: path.join('.') };
    };
    if (typeof section.baseUrl === 'string') {
      try {
        resolveProxy({
          baseUrl: section.baseUrl,
          configured: typeof section.proxy === 'string' ? section.proxy : undefined,
          env,
          plugin: plugin.slot.id ?? plugin.slot.alias,
        });
      } catch (error) {
        if (!AalisError.hasCode(error, 'AALIS_LLM_OPENAI_PROXY_UNSUPPORTED')) throw error;
        const variable = String(error.details.source);
        problems.push({
          kind: 'issue',
          ...(variable === 'proxy' ? at('proxy') : { source: { variable }, path: variable }),
          expected: translate(textRef('runtime.config.proxy'), locale),
          received: describeReceived(error.details.received, locale),
        });
      }
    }
    if (typeof section.caFile === 'string') {
      // Relative to the working directory, as the provider reads it.
      const path = resolve(section.caFile);
      try {
        accessSync(path, constants.R_OK);
      } catch (error) {
        problems.push({
          kind: 'issue',
          ...at('caFile'),
          expected: translate(textRef('runtime.config.caFile'), locale),
          received: translate(
            textRef('runtime.config.caFileMissing', {
              path,
              reason: (error as NodeJS.ErrnoException).code ?? String(error),
            }),
            locale,
          ),
        });
      }
    }
  }
  return problems;
}
