import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PersistedPreferences } from './persisted-preferences.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function file() {
  const dir = mkdtempSync(join(tmpdir(), 'aalis-prefs-'));
  dirs.push(dir);
  return join(dir, 'nested', 'preferences.json');
}

describe('PersistedPreferences', () => {
  it('starts from the configuration when nothing was changed', () => {
    const baseline = { global: { llm: 'openai/a' }, plugins: {} };
    expect(new PersistedPreferences(file(), baseline).load()).toEqual(baseline);
  });

  it('keeps run-time changes (set and removed) across restarts', () => {
    const path = file();
    const baseline = { global: { llm: 'openai/a', tts: 'x' }, plugins: {} };
    const first = new PersistedPreferences(path, baseline);
    first.load();
    first.record({ global: { llm: 'openai/b' }, plugins: { '@aalis/plugin-agent': { llm: 'openai/c' } } });
    const again = new PersistedPreferences(path, baseline).load();
    expect(again).toEqual({ global: { llm: 'openai/b' }, plugins: { '@aalis/plugin-agent': { llm: 'openai/c' } } });
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({
      version: 1,
      global: { llm: { value: 'openai/b', over: 'openai/a' }, tts: { value: null, over: 'x' } },
    });
  });

  it('drops a stored change once the configuration changed the value it replaced', () => {
    const path = file();
    const first = new PersistedPreferences(path, { global: { llm: 'openai/a' }, plugins: {} });
    first.record({ global: { llm: 'openai/b' }, plugins: {} });
    const edited = new PersistedPreferences(path, { global: { llm: 'openai/z' }, plugins: {} });
    expect(edited.load()).toEqual({ global: { llm: 'openai/z' }, plugins: {} });
  });

  it('ignores an unreadable file', () => {
    const path = file();
    new PersistedPreferences(path, { global: {}, plugins: {} }).record({ global: { a: 'b' }, plugins: {} });
    writeFileSync(path, '{ not json');
    expect(new PersistedPreferences(path, { global: {}, plugins: {} }).load()).toEqual({ global: {}, plugins: {} });
  });
});
