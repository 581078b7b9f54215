// The aalis command while it starts: a SIGINT right after the start banner of an idle
// `aalis serve` drains and exits 0 (the handlers are in place before the banner), and a start that fails after the
// configuration was read is worded in the configured locale, not the environment's guess.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { type MainIo, main } from './cli.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function workspace(config: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'aalis-start-signals-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'aalis.config.yaml'), config);
  return dir;
}

function io(cwd: string, onOutput?: (text: string, signal: (name: NodeJS.Signals) => void) => void) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  const handlers = new Set<(signal: NodeJS.Signals) => void>();
  const signal = (name: NodeJS.Signals) => {
    for (const handler of [...handlers]) handler(name);
  };
  stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
    onOutput?.(out, signal);
  });
  stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
  });
  const value: MainIo = {
    stdin: new PassThrough(),
    stdout,
    stderr,
    env: {},
    cwd,
    onSignal(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    exit: () => {
      throw new Error('forced exit');
    },
  };
  return { io: value, out: () => out, err: () => err };
}

describe('aalis while it starts', () => {
  it('a SIGINT right after the start banner of an idle aalis serve drains and exits 0', async () => {
    const dir = workspace('locale: en\nconsoleLogLevel: off\nwebui:\n  port: 0\nplugins:\n  llm-offline: true\n');
    let sent = false;
    const run = io(dir, (text, signal) => {
      // The moment the banner's first line is out, as a person pressing Ctrl-C at once would.
      if (!sent && text.includes('Aalis ')) {
        sent = true;
        signal('SIGINT');
      }
    });
    const status = await main(['serve'], run.io);
    expect(sent).toBe(true);
    expect(status).toBe(0);
    expect(run.err()).toContain('SIGINT');
  }, 30_000);

  it('a database that cannot be used is reported in the configured locale (en), not the environment’s', async () => {
    const dir = workspace('locale: en\nconsoleLogLevel: off\ndatabase: postgres://aalis:secret@127.0.0.1:9/aalis\n');
    const run = io(dir);
    expect(await main(['serve'], run.io)).toBe(1);
    expect(run.err()).toContain('cannot be used');
    expect(run.err()).not.toMatch(/[\u4e00-\u9fff]/);
    expect(run.err()).not.toContain('secret');
  }, 30_000);
});
