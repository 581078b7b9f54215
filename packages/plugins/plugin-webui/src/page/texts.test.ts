import { describe, expect, it } from 'vitest';
import { PAGE_TEXTS, translator } from './texts.js';

describe('the WebUI catalogue', () => {
  it('has every key in both languages', () => {
    expect(Object.keys(PAGE_TEXTS['zh-CN']).sort()).toEqual(Object.keys(PAGE_TEXTS.en).sort());
  });

  it('uses the specification’s wording in zh-CN', () => {
    const zh = translator('zh-CN');
    expect(zh('webui-page.composer.stop')).toBe('停止');
    expect(zh('webui-page.unsent')).toBe('未发出');
    expect(zh('webui-page.outcome.silent')).toBe('没有回复');
    expect(zh('webui-page.outcome.aborted')).toBe('已停止');
    expect(translator('en')('webui-page.composer.stop')).toBe('Stop');
  });
});
