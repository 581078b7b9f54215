import { describe, expect, it } from 'vitest';
import { defaultPersonaYaml } from './default-persona.js';
import { parsePersonaFile } from './parse-persona-file.js';

const parse = (text: string, locale: 'en' | 'zh-CN' = 'en') => parsePersonaFile({ file: 'p.yaml', text, locale });
const problem = (text: string) => {
  const result = parse(text);
  if (result.ok) throw new Error('expected a problem');
  return { code: result.error.code, ...result.error.details, message: result.error.message };
};

describe('parsePersonaFile', () => {
  it('reads id, name, prompt and structuredOutput', () => {
    const result = parse('id: x\nname: X\nprompt: |\n  line one\n  line two\nstructuredOutput:\n  type: object\n');
    expect(result).toEqual({
      ok: true,
      persona: {
        id: 'x',
        name: 'X',
        prompt: 'line one\nline two',
        file: 'p.yaml',
        structuredOutput: { type: 'object' },
      },
    });
  });

  it('locates YAML syntax errors', () => {
    expect(problem('id: ok\nname: N\n  prompt: bad indent\n')).toMatchObject({
      code: 'AALIS_PERSONA_INVALID',
      file: 'p.yaml',
      line: 2,
      column: 7,
    });
    expect(problem('id: x\nid: y\nname: N\nprompt: p\n')).toMatchObject({ line: 2, column: 1 });
    expect(problem('id: x\nid: y\nname: N\nprompt: p\n').message).toContain('unique');
  });

  it('names missing, empty, unknown and malformed fields with their position', () => {
    expect(problem('id: ok\nname: N\n')).toMatchObject({
      line: 1,
      column: 1,
      message: expect.stringContaining('"prompt"'),
    });
    expect(problem('id: x\nname:\nprompt: p\n')).toMatchObject({ line: 2, message: expect.stringContaining('"name"') });
    expect(problem('id: x\nname: N\nprompt: p\nextra: 1\n')).toMatchObject({ line: 4, column: 1 });
    expect(problem('id: a b\nname: N\nprompt: p\n')).toMatchObject({ line: 1, column: 5 });
    expect(problem('id: 12\nname: N\nprompt: p\n')).toMatchObject({
      line: 1,
      message: expect.stringContaining('"id"'),
    });
    expect(problem('id: x\nname: N\nprompt: p\nstructuredOutput: [1]\n')).toMatchObject({ line: 4, column: 19 });
    expect(problem('- a\n')).toMatchObject({ line: 1, message: expect.stringContaining('mapping') });
    expect(problem('')).toMatchObject({ line: 1, column: 1, message: expect.stringContaining('empty') });
  });

  it('words the problem in the reader locale', () => {
    const result = parse('id: ok\nname: N\n', 'zh-CN');
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.error.localized('zh-CN')).toBe(
        '人设文件 p.yaml 第 1 行第 1 列：缺少必填字段「prompt」。请修改这个文件后用 /persona.reload 重新加载（或重启）；其余人设照常可用。',
      );
  });

  it('parses the default persona file it writes, in both locales', () => {
    for (const locale of ['en', 'zh-CN'] as const) {
      const result = parse(defaultPersonaYaml({ id: 'default', locale }), locale);
      expect(result.ok && result.persona.id).toBe('default');
    }
  });
});
