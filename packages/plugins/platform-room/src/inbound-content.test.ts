// Files and voice recordings a room platform points to, fetched over real HTTP within the limits: fetched ones
// become attachments with their declared type and name, and one that cannot be fetched (too large, gone) becomes a
// note in the text, never a lost message.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { translate } from '@aalis/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inboundContent } from './inbound-content.js';

let server: Server;
let base: string;
const served = new Map<string, { type: string; body: Buffer }>([
  ['/report.pdf', { type: 'application/pdf', body: Buffer.from('%PDF-1.4 tiny') }],
  ['/voice.amr', { type: 'audio/amr', body: Buffer.from('#!AMR\n0123') }],
  ['/big.bin', { type: 'application/octet-stream', body: Buffer.alloc(5_000, 1) }],
]);

beforeAll(async () => {
  server = createServer((req, res) => {
    const file = served.get(req.url ?? '');
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': file.type }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const logger = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, child: () => logger } as never;

describe('inboundContent: files and voice recordings', () => {
  it('fetches them as attachments, and turns the ones it cannot fetch into notes', async () => {
    const { content, attachments } = await inboundContent({
      text: 'see attached',
      images: [],
      files: [
        { type: 'file', url: `${base}/report.pdf`, name: 'report.pdf' },
        { type: 'audio', url: `${base}/voice.amr`, name: 'voice' },
        { type: 'file', url: `${base}/big.bin`, name: 'big.bin' },
        { type: 'file', url: `${base}/gone.txt`, name: 'gone.txt' },
        { type: 'audio', unavailable: 'no url' },
        { type: 'file', url: `base64://${Buffer.from('inline text').toString('base64')}`, name: 'inline.txt' },
      ],
      maxLength: 1_000,
      image: { maxBytes: 100_000, timeoutMs: 5_000 },
      file: { maxBytes: 4_096, timeoutMs: 5_000 },
      t: (text) => translate(text, 'en'),
      logger,
    });
    expect(attachments).toEqual([
      {
        type: 'file',
        mimeType: 'application/pdf',
        name: 'report.pdf',
        data: Buffer.from('%PDF-1.4 tiny').toString('base64'),
      },
      { type: 'audio', mimeType: 'audio/amr', name: 'voice', data: Buffer.from('#!AMR\n0123').toString('base64') },
      { type: 'file', name: 'inline.txt', data: Buffer.from('inline text').toString('base64') },
    ]);
    expect(content).toBe(
      'see attached [file big.bin: could not be fetched] [file gone.txt: could not be fetched] [voice message: could not be fetched]',
    );
  });
});
