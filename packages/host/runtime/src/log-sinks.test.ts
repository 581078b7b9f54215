import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LogRecord } from '@aalis/core';
import { afterEach, describe, expect, it } from 'vitest';
import { fileLogSink, formatLogLine, lineLogSink, redactor } from './log-sinks.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function directory() {
  const dir = mkdtempSync(join(tmpdir(), 'aalis-logs-'));
  dirs.push(dir);
  return join(dir, 'logs');
}
const record = (message: string, fields?: Record<string, unknown>): LogRecord => ({
  time: Date.UTC(2026, 0, 2, 3, 4, 5),
  level: 'info',
  name: 'test',
  message,
  ...(fields ? { fields } : {}),
});

describe('the file log', () => {
  it('writes one line per record', () => {
    expect(formatLogLine(record('hello', { n: 1 }))).toBe('2026-01-02T03:04:05.000Z INFO  test: hello {"n":1}');
    const sink = fileLogSink({ dir: directory(), level: 'info', maxBytes: 10_000, maxFiles: 3 });
    sink.write(record('one'));
    sink.write(record('two'));
    sink.close();
    expect(readFileSync(sink.path, 'utf8').trim().split('\n')).toHaveLength(2);
  });

  it('rotates by size and keeps maxFiles files', () => {
    const dir = directory();
    const sink = fileLogSink({ dir, level: 'info', maxBytes: 200, maxFiles: 3 });
    for (let index = 0; index < 20; index++) sink.write(record(`message number ${index} ${'x'.repeat(60)}`));
    sink.close();
    expect(readdirSync(dir).sort()).toEqual(['aalis.1.log', 'aalis.2.log', 'aalis.log']);
    for (const name of readdirSync(dir)) expect(readFileSync(join(dir, name)).length).toBeLessThanOrEqual(200);
    expect(readFileSync(join(dir, 'aalis.log'), 'utf8')).toContain('message number 19');
    expect(existsSync(join(dir, 'aalis.3.log'))).toBe(false);
  });

  it('never writes a secret: credential fields and the configured values are masked', () => {
    const sink = fileLogSink({
      dir: directory(),
      level: 'info',
      maxBytes: 10_000,
      maxFiles: 1,
      secrets: ['sk-live-123456'],
    });
    sink.write(
      record('request failed for key sk-live-123456', {
        apiKey: 'sk-live-123456',
        headers: { authorization: 'Bearer x' },
      }),
    );
    sink.close();
    const text = readFileSync(sink.path, 'utf8');
    expect(text).not.toContain('sk-live-123456');
    expect(text).not.toContain('Bearer x');
    expect(text).toContain('***');
  });
});

describe('the file line (labels made once, no key array, secrets looked for first)', () => {
  it('spells every level and the fields as the former per-line formatting did', () => {
    for (const level of ['trace', 'debug', 'info', 'warn', 'error'] as const) {
      const line = formatLogLine({ ...record('m', { a: 1 }), level });
      expect(line).toBe(`2026-01-02T03:04:05.000Z ${level.toUpperCase().padEnd(5)} test: m {"a":1}`);
    }
    expect(formatLogLine(record('empty', {}))).toBe('2026-01-02T03:04:05.000Z INFO  test: empty');
    // Only own keys count, as with Object.keys: inherited ones make no fields text.
    expect(formatLogLine(record('inherited', Object.create({ a: 1 })))).toBe(
      '2026-01-02T03:04:05.000Z INFO  test: inherited',
    );
  });

  it('masks each secret wherever it is and leaves a line without one as it was', () => {
    const lines: string[] = [];
    const sink = lineLogSink({ level: 'info', secrets: ['hunter22', 'sk-abc'], write: (line) => lines.push(line) });
    sink.write(record('hunter22 and sk-abc, hunter22 again'));
    sink.write(record('nothing secret here'));
    expect(lines).toEqual(['[info] test: *** and ***, *** again', '[info] test: nothing secret here']);
  });
});

describe('the console log', () => {
  it('writes short lines at its level with secrets masked', () => {
    const lines: string[] = [];
    const sink = lineLogSink({ level: 'warn', secrets: ['hunter22'], write: (line) => lines.push(line) });
    sink.write({ ...record('password is hunter22'), level: 'warn' });
    expect(sink.level).toBe('warn');
    expect(lines).toEqual(['[warn] test: password is ***']);
  });
});

describe('redactor', () => {
  it('redacts a secret added to the list after it was made (a key entered through the console)', () => {
    const secrets = ['sk-start-1234'];
    const redact = redactor(secrets);
    expect(redact('a sk-start-1234 b sk-later-5678')).toBe('a *** b sk-later-5678');
    secrets.push('sk-later-5678');
    expect(redact('a sk-start-1234 b sk-later-5678')).toBe('a *** b ***');
  });
});
