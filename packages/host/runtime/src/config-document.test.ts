import { describe, expect, it } from 'vitest';
import { revisionOf, setInText, valueAt } from './config-document.js';
import { DEFAULT_CONFIG_FILE } from './default-config-file.js';

const FILE = `# top comment
locale: en   # the language
llm:
  baseUrl: "http://127.0.0.1:1/v1"  # endpoint
  apiKey: ""
plugins:
  # the agent
  agent:
    systemPrompt: "Be brief."   # rules
    maxToolRounds: 8
  cli: { reasoning: expanded }
  memory-summary: false
`;

describe('setInText', () => {
  it('changes one value and keeps every comment, the key order and the other sections', () => {
    const next = setInText(FILE, ['plugins', 'agent'], { systemPrompt: 'Answer in French.', maxToolRounds: 8 });
    expect(next).toBe(FILE.replace('"Be brief."', '"Answer in French."'));
    expect(valueAt(next, ['plugins', 'agent', 'systemPrompt'])).toBe('Answer in French.');
  });

  it('removes keys left out, appends new ones after the existing ones', () => {
    const next = setInText(FILE, ['plugins', 'agent'], { maxToolRounds: 3, toolTimeoutMs: 1000 });
    expect(next).toContain('# the agent\n  agent:\n    maxToolRounds: 3\n    toolTimeoutMs: 1000\n');
    expect(next).not.toContain('systemPrompt');
    expect(next.startsWith('# top comment\nlocale: en   # the language\n')).toBe(true);
    expect(next.indexOf('agent:')).toBeLessThan(next.indexOf('cli:'));
  });

  it('turns a plugin off and on again, and creates missing parents as block mappings', () => {
    const off = setInText(FILE, ['plugins', 'cli'], false);
    expect(off).toContain('  cli: false\n');
    const on = setInText(off, ['plugins', 'cli'], undefined);
    expect(on).not.toContain('cli');
    expect(on).toContain('memory-summary: false');
    const created = setInText('locale: en\n', ['plugins', 'mcp', 'servers'], { files: { command: 'npx' } });
    expect(created).toBe('locale: en\nplugins:\n  mcp:\n    servers:\n      files:\n        command: npx\n');
  });

  it('edits lists item by item and flow mappings in place', () => {
    const base = 'owners:\n  - { platform: webui, userId: owner } # me\n  - { platform: cli, userId: local }\n';
    const next = setInText(base, ['owners'], [{ platform: 'webui', userId: 'boss' }]);
    expect(next).toBe('owners:\n  - { platform: webui, userId: boss } # me\n');
    const flow = setInText(FILE, ['plugins', 'cli', 'usageAfterTurn'], true);
    expect(flow).toContain('cli: { reasoning: expanded, usageAfterTurn: true }');
  });

  it('keeps the default file as it is apart from the key written', () => {
    const next = setInText(DEFAULT_CONFIG_FILE, ['plugins', 'agent', 'systemPrompt'], 'Short answers.');
    expect(next).toBe(DEFAULT_CONFIG_FILE.replace('systemPrompt: ""', 'systemPrompt: "Short answers."'));
  });
});

describe('setInText round trips', () => {
  const cases: [string, string[], unknown][] = [
    ['plugins:\n  agent:\n', ['plugins', 'agent'], { systemPrompt: 'x' }],
    ['plugins:\n  agent: # mine\n    systemPrompt: a\n', ['plugins', 'agent'], { toolTimeoutMs: 5 }],
    ['plugins:\n  agent:\n    systemPrompt: a\n', ['plugins', 'agent', 'systemPrompt'], 'two\nlines "quoted"'],
    [
      'plugins:\n  mcp:\n    servers:\n      a: { url: "http://x" }\n',
      ['plugins', 'mcp', 'servers', 'b'],
      { command: 'npx', args: ['-y', 'x'] },
    ],
    [
      'owners:\n  - platform: webui\n    userId: a\n  - platform: cli\n    userId: b\n',
      ['owners'],
      [
        { platform: 'webui', userId: 'c' },
        { platform: 'x', userId: 'd' },
        { platform: 'y', userId: 'e' },
      ],
    ],
    ['llm: { baseUrl: "" }\n', ['llm'], { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k' }],
    ['plugins: {}\n', ['plugins', 'budget'], { perPersonDay: { tokens: 10 } }],
    ['', ['plugins', 'agent', 'systemPrompt'], 'hi'],
    ['# only a comment\n', ['locale'], 'en'],
    ['a: 1\nb: [1, 2]\n', ['b'], [3]],
    ['a: 1\nb:\n  - 1\n  - 2\n', ['b'], []],
    ['a: 1\nb:\n  c: 1\n  d: 2\n', ['b'], { e: 3 }],
  ];
  it.each(cases)('%j: %j', (text, path, value) => {
    const next = setInText(text, path, value);
    expect(valueAt(next, path)).toEqual(value);
    const others = valueAt(text, []) as Record<string, unknown>;
    for (const key of Object.keys(others ?? {}).filter((key) => key !== path[0])) {
      expect(valueAt(next, [key])).toEqual(others[key]);
    }
  });

  it('keeps a comment on the key line when a value becomes a mapping', () => {
    const next = setInText('plugins:\n  agent: # mine\n', ['plugins', 'agent'], { systemPrompt: 'x' });
    expect(next).toBe('plugins:\n  agent: # mine\n    systemPrompt: x\n');
  });
});

describe('revisionOf', () => {
  it('changes with any edit, a comment too', () => {
    expect(revisionOf(FILE)).toBe(revisionOf(`${FILE}`));
    expect(revisionOf(FILE)).not.toBe(revisionOf(FILE.replace('# rules', '# the rules')));
  });
});
