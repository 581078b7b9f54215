import { describe, expect, it } from 'vitest';
import { speakableText } from './speakable-text.js';

describe('speakableText', () => {
  it('keeps the words and drops the marks, addresses and code blocks', () => {
    const text = speakableText(
      [
        '# 天气',
        '',
        '今天**晴**，见 [预报](https://example.com/x?key=1)。',
        '',
        '- 早上 `12°C`',
        '- 下午 *20°C*',
        '',
        '```js',
        'console.log("not read")',
        '```',
        '',
        '![一朵云](cloud.png)',
      ].join('\n'),
    );
    expect(text).toBe('天气\n\n今天晴，见 预报。\n\n早上 12°C\n下午 20°C\n\n一朵云');
    expect(text).not.toContain('https://');
    expect(text).not.toContain('console.log');
  });

  it('reads a table row by row, and a reply that is only code has nothing to speak', () => {
    expect(speakableText('| a | b |\n|---|---|\n| 1 | 2 |')).toBe('a，b\n1，2');
    expect(speakableText('```\nls -la\n```')).toBe('');
  });
});
