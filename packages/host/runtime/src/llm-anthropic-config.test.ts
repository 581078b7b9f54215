// How Claude is enabled: a plugins.llm-anthropic section or ANTHROPIC_API_KEY; the key is a secret either way.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type LoadResult, loadConfig } from './load-config.js';
import { pluginSlots } from './plugin-set.js';
import './runtime-texts.js';

/** The runtime's plugin slots (the optional plugins' config modules imported once). */
const slots = await pluginSlots();

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function load(text: string, env: Record<string, string> = {}): LoadResult {
  const dir = mkdtempSync(join(tmpdir(), 'aalis-anthropic-'));
  dirs.push(dir);
  const file = join(dir, 'aalis.config.yaml');
  writeFileSync(file, text);
  return loadConfig({ file, env, slots, systemTimeZone: () => 'Europe/Paris' });
}

function planned(result: LoadResult) {
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.config;
}

describe('plugins.llm-anthropic', () => {
  it('is enabled by ANTHROPIC_API_KEY alone, which becomes its apiKey and a secret; the offline model steps aside', () => {
    const config = planned(load('locale: en\n', { ANTHROPIC_API_KEY: 'sk-ant-env-123456' }));
    const aliases = config.plugins.map((plugin) => plugin.slot.alias);
    expect(aliases).toContain('llm-anthropic');
    expect(aliases).not.toContain('llm-offline');
    const section = config.plugins.find((plugin) => plugin.slot.alias === 'llm-anthropic')!;
    expect(section.slot.id).toBe('anthropic');
    expect(section.section.apiKey).toBe('sk-ant-env-123456');
    expect(config.secrets).toContain('sk-ant-env-123456');
  });

  it('is enabled by its section, whose key wins over the environment and is a secret', () => {
    const config = planned(
      load('plugins:\n  llm-anthropic:\n    apiKey: sk-ant-file-987654\n    models: [{ id: claude-sonnet-4-5 }]\n', {
        ANTHROPIC_API_KEY: 'sk-ant-env-123456',
      }),
    );
    const section = config.plugins.find((plugin) => plugin.slot.alias === 'llm-anthropic')!;
    expect(section.section.apiKey).toBe('sk-ant-file-987654');
    expect(config.secrets).toContain('sk-ant-file-987654');
  });

  it('is off without either, and with `llm-anthropic: false`', () => {
    expect(planned(load('locale: en\n')).plugins.map((plugin) => plugin.slot.alias)).not.toContain('llm-anthropic');
    const off = planned(load('plugins:\n  llm-anthropic: false\n', { ANTHROPIC_API_KEY: 'sk-ant-env-123456' }));
    expect(off.plugins.map((plugin) => plugin.slot.alias)).not.toContain('llm-anthropic');
  });

  it('reports a thinking budget the API would refuse, with its path', () => {
    const result = load('plugins:\n  llm-anthropic:\n    apiKey: k\n    thinkingBudgets: { low: 10 }\n');
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.problems.map((problem) => ('path' in problem ? problem.path : ''))).toContain(
        'plugins.llm-anthropic.thinkingBudgets.low',
      );
  });
});
