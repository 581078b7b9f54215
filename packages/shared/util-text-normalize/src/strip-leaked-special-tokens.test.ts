import { describe, expect, it } from 'vitest';
import { stripLeakedSpecialTokens } from './strip-leaked-special-tokens.js';

describe('stripLeakedSpecialTokens', () => {
  it('removes chat-template tokens', () => {
    expect(stripLeakedSpecialTokens('Hello there<|im_end|>')).toBe('Hello there');
    expect(stripLeakedSpecialTokens('<|im_start|>assistant answer')).toBe('assistant answer');
  });

  it('removes a leaked DeepSeek tool-call block without executing it', () => {
    const leaked =
      '好的。<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>search\n```json\n{"q":"x"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>';
    expect(stripLeakedSpecialTokens(leaked)).toBe('好的。');
  });

  it('removes DSML function-call markup and stray DeepSeek tokens', () => {
    const leaked = '答案<｜DSML｜function_calls><｜DSML｜invoke name="x"></｜DSML｜invoke></｜DSML｜function_calls>';
    expect(stripLeakedSpecialTokens(leaked)).toBe('答案');
    expect(stripLeakedSpecialTokens('完<｜end▁of▁sentence｜>')).toBe('完');
  });

  it('leaves ordinary text, markdown tables and angle brackets alone', () => {
    const table = '| a | b |\n|---|---|\n| 1 < 2 | <b>x</b> |\n';
    expect(stripLeakedSpecialTokens(table)).toBe(table);
    expect(stripLeakedSpecialTokens('if (a < b && c > d) return <T>')).toBe('if (a < b && c > d) return <T>');
  });
});
