import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configReference, REFERENCE_END, REFERENCE_START, withReference } from './config-reference.js';
import { pluginSlots } from './plugin-set.js';

const slots = await pluginSlots();

describe('the configuration reference', () => {
  it('is up to date in docs/configuration.md (run `npm run docs:config` after changing a config schema)', () => {
    const document = readFileSync(new URL('../../../../docs/configuration.md', import.meta.url), 'utf8');
    expect(
      withReference(document, configReference(slots)),
      'docs/configuration.md is stale: run `npm run docs:config`',
    ).toBe(document);
  });

  it('has a section for the host keys and for every plugin of the default set', () => {
    const reference = configReference(slots);
    expect(reference).toContain('### Host keys');
    for (const slot of slots) expect(reference).toContain(`### \`plugins.${slot.alias}\` — ${slot.name}`);
    expect(reference).toContain('| `llm.baseUrl` | string | `""` |');
    expect(reference).toContain('| `systemPrompt` | string | `""` |');
  });

  it('replaces only the part between the markers', () => {
    const document = `intro\n${REFERENCE_START}\nold\n${REFERENCE_END}\noutro\n`;
    const updated = withReference(document, 'new\n');
    expect(updated).toBe(`intro\n${REFERENCE_START}\n\nnew\n\n${REFERENCE_END}\noutro\n`);
    expect(() => withReference('no markers', 'new\n')).toThrow(/markers/);
  });
});
