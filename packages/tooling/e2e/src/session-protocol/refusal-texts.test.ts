// Conformance: a refused login link or an unreadable frame says why in the host's locale (zh-CN here), while
// `details.reason` stays the English text a client may match.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { loadOrCreateSecret, mintLinkToken } from '../../../../plugins/plugin-session-server/src/login-link.js';
import { type Host, loginCookie, startHost } from './harness.case.js';

let host: Host;
beforeAll(async () => {
  host = await startHost({ locale: 'zh-CN' });
});
afterAll(async () => {
  await host?.stop();
});

const LATIN_REASON = /[((][A-Za-z ]+[))]|:[A-Za-z" ]+。/;

describe('refusals in zh-CN', () => {
  it('a malformed, foreign or unknown-account link is refused on the page with a Chinese reason', async () => {
    const secret = loadOrCreateSecret(join(host.dir, 'data'));
    const token = new URL(host.aalis.webui!.loginLink()!).searchParams.get('token')!;
    const foreign = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    const cases = [
      ['garbage', '格式不对'],
      [foreign, '不是这台宿主签发的'],
      [mintLinkToken({ secret, userId: 'mallory' }), '账号不存在'],
    ] as const;
    for (const [candidate, reason] of cases) {
      const response = await fetch(`${host.base}/?token=${encodeURIComponent(candidate)}`, { redirect: 'manual' });
      expect(response.status).toBe(401);
      const page = await response.text();
      expect(page).toContain('AALIS_WEBUI_LINK_INVALID');
      expect(page).toContain(`这个登录链接在这里无效（${reason}）`);
      expect(page).not.toMatch(LATIN_REASON);
      expect(page).toContain('<code>aalis webui-link</code>');
      expect(page).not.toContain('`');
    }
    const login = await fetch(`${host.base}/api/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: 'garbage' }),
    });
    expect((await login.json()).error).toMatchObject({
      code: 'AALIS_WEBUI_LINK_INVALID',
      message: expect.stringContaining('格式不对'),
      details: { reason: 'malformed' },
    });
  });

  it('an unreadable frame is refused with a Chinese reason and the socket stays open', async () => {
    const cookie = await loginCookie(host);
    const socket = new WebSocket(`${host.base.replace('http', 'ws')}/api/v1/socket`, {
      headers: { cookie, origin: host.base },
    });
    const frames: Array<{ type: string; error?: { code: string; message: string; details?: unknown } }> = [];
    socket.on('message', (data) => frames.push(JSON.parse(String(data))));
    await new Promise((resolve) => socket.once('open', resolve));
    const next = async (count: number) => {
      const deadline = Date.now() + 5000;
      while (frames.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      return frames[count - 1];
    };
    expect(await next(1)).toMatchObject({ type: 'hello', locale: 'zh-CN' });
    const cases = [
      ['not json', '不是 JSON', 'not JSON'],
      ['[1]', '不是 JSON 对象', 'not a JSON object'],
      [
        JSON.stringify({ type: 'ping' }),
        '"id" 必须是 1 到 64 个字符的字符串',
        '"id" must be a string of 1 to 64 characters',
      ],
      [JSON.stringify({ id: 'a', type: 7 }), '"type" 必须是字符串', '"type" must be a string'],
    ] as const;
    for (const [index, [frame, reason, english]] of cases.entries()) {
      socket.send(frame);
      expect(await next(index + 2)).toMatchObject({
        type: 'error',
        error: {
          code: 'AALIS_WEBUI_FRAME_MALFORMED',
          message: `读不了这一帧：${reason}。请发一个带字符串 "id" 与 "type" 的 JSON 对象。`,
          details: { reason: english },
        },
      });
    }
    const byId = async (id: string) => {
      const deadline = Date.now() + 5000;
      const find = () => frames.find((frame) => (frame as { id?: string }).id === id);
      while (!find() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      return find() as Record<string, unknown> | undefined;
    };
    socket.send(JSON.stringify({ id: 'new', type: 'session.create' }));
    const created = (await byId('new'))!.result as { session: { id: string } };
    const sessionId = created.session.id;
    const badImage = { type: 'image', mimeType: 'text/html', data: 'AAAA' };
    socket.send(JSON.stringify({ id: 'img', type: 'send', sessionId, text: 'look', attachments: [badImage] }));
    const refused = await byId('img');
    expect(refused).toMatchObject({
      type: 'error',
      error: {
        code: 'AALIS_WEBUI_ATTACHMENT_INVALID',
        message: expect.stringContaining('mimeType 应为 image/png, image/jpeg, image/gif, image/webp 之一'),
        details: { reason: 'mimeType must be one of image/png, image/jpeg, image/gif, image/webp' },
      },
    });
    socket.send(JSON.stringify({ id: 'bad', type: 'subscribe' }));
    expect(await byId('bad')).toMatchObject({
      error: {
        code: 'AALIS_WEBUI_BAD_REQUEST',
        message: '请求「subscribe」的参数 sessionId 不对：应为 会话 id，实际为 没有值。',
        details: { problems: [{ path: 'sessionId', expected: 'a session id', received: 'nothing' }] },
      },
    });
    socket.send(JSON.stringify({ id: 'long', type: 'session.create', title: 'x'.repeat(2000) }));
    expect(((await byId('long'))!.error as { message: string }).message).toMatch(
      /^请求「session.create」的参数 title 不对：应为 不超过 1024 个字符的字符串，实际为 字符串 "x+…。$/u,
    );
    socket.send(JSON.stringify({ id: 'text', type: 'send', sessionId, text: { secret: 'content' } }));
    const text = ((await byId('text'))!.error as { message: string }).message;
    expect(text).toContain('实际为 object');
    expect(text).not.toContain('content');
    socket.send(JSON.stringify({ id: 'ping', type: 'ping' }));
    expect(await byId('ping')).toMatchObject({ type: 'reply' });
    socket.close();
  });
});
