// Sending to DingTalk: through a chat's session webhook (the URL each robot message carries, valid until its
// expiry) or, when that has expired, the robot API (`/v1.0/robot/groupMessages/send`, `/oToMessages/batchSend`)
// with an access token from `/v1.0/oauth2/accessToken`, kept until a minute before it expires (it also uploads
// voices to oapi's `/media/upload`). A 429 (or the webhook's "too fast" errcode) is waited out once; other failures
// are coded errors that never carry a secret.
import { CachedToken, type FetchedToken, type PlatformAnswer, platformRequest } from '@aalis/platform-room';
import { dingtalkErrors } from './dingtalk-errors.js';

export interface DingtalkApiOptions {
  clientId: string;
  clientSecret: string;
  robotCode: string;
  apiBase: string;
  /** The older API (oapi), where media are uploaded. */
  oapiBase: string;
  timeoutMs: number;
}

/** A message in DingTalk's robot shapes: `sampleText`/`sampleMarkdown` for the API, `text`/`markdown` for webhooks. */
export type DingtalkContent = { kind: 'text'; text: string } | { kind: 'markdown'; title: string; text: string };

/** The session webhook's "sending too fast" errcode. */
const TOO_FAST = 130101;
const MAX_WAIT_S = 60;

export class DingtalkApi {
  private readonly token = new CachedToken(() => this.fetchToken());

  constructor(private readonly options: DingtalkApiOptions) {}

  private get base(): string {
    return this.options.apiBase.replace(/\/+$/, '');
  }

  accessToken(): Promise<string> {
    return this.token.get();
  }

  private async fetchToken(): Promise<FetchedToken> {
    const { status, body } = await this.request('oauth2/accessToken', `${this.base}/v1.0/oauth2/accessToken`, {
      appKey: this.options.clientId,
      appSecret: this.options.clientSecret,
    });
    const token = body.accessToken;
    if (status >= 400 || typeof token !== 'string' || token === '') {
      const reason = `${status} ${String(body.code ?? '')} ${String(body.message ?? 'no accessToken')}`.trim();
      if (status >= 500) throw dingtalkErrors.AALIS_DINGTALK_UNREACHABLE({ what: 'oauth2/accessToken', reason });
      throw dingtalkErrors.AALIS_DINGTALK_CREDENTIALS_REJECTED({ reason }, { statusCode: status });
    }
    return { value: token, lifetimeS: Number(body.expireIn ?? 7200) || 7200 };
  }

  /** Sends through a session webhook. */
  async sendByWebhook(webhook: string, content: DingtalkContent, atUserIds: string[] = []): Promise<void> {
    const body =
      content.kind === 'text'
        ? { msgtype: 'text', text: { content: content.text } }
        : { msgtype: 'markdown', markdown: { title: content.title, text: content.text } };
    for (let attempt = 0; ; attempt++) {
      const answer = await this.request('session webhook', webhook, {
        ...body,
        ...(atUserIds.length > 0 ? { at: { atUserIds, isAtAll: false } } : {}),
      });
      const errcode = Number(answer.body.errcode ?? 0);
      if ((answer.status === 429 || errcode === TOO_FAST) && attempt === 0) {
        await wait(answer.retryAfterS ?? 1);
        continue;
      }
      if (answer.status >= 400 || errcode !== 0) {
        throw dingtalkErrors.AALIS_DINGTALK_API_FAILED(
          {
            what: 'session webhook',
            status: answer.status,
            reason: `${errcode} ${String(answer.body.errmsg ?? '')}`.trim(),
          },
          { statusCode: answer.status, isRetryable: answer.status >= 500 },
        );
      }
      return;
    }
  }

  /** Sends through the robot API: a group by its conversation id, a single chat by the person's user id. */
  async sendByApi(target: { group: string } | { userId: string }, content: DingtalkContent): Promise<void> {
    const msgKey = content.kind === 'text' ? 'sampleText' : 'sampleMarkdown';
    const msgParam = JSON.stringify(
      content.kind === 'text' ? { content: content.text } : { title: content.title, text: content.text },
    );
    await this.sendRobotMessage(target, msgKey, msgParam);
  }

  /** A voice message (sampleAudio) through the robot API: an uploaded voice's media id and its length. */
  async sendAudioByApi(target: { group: string } | { userId: string }, mediaId: string, durationMs: number) {
    await this.sendRobotMessage(target, 'sampleAudio', JSON.stringify({ mediaId, duration: String(durationMs) }));
  }

  /**
   * Uploads a file to oapi's media/upload (multipart `media`; the app's access token works there too) and answers
   * its media_id. oapi answers its refusals as errcode/errmsg with HTTP 200.
   */
  async uploadMedia(type: 'voice' | 'image' | 'file', bytes: Uint8Array, filename: string, mimeType: string) {
    const what = 'media/upload';
    const token = await this.accessToken();
    const url = new URL(`${this.options.oapiBase.replace(/\/+$/, '')}/media/upload`);
    url.searchParams.set('access_token', token);
    url.searchParams.set('type', type);
    const form = new FormData();
    form.append('media', new Blob([Buffer.from(bytes)], { type: mimeType }), filename);
    let response: Response;
    try {
      response = await fetch(url, { method: 'POST', body: form, signal: AbortSignal.timeout(this.options.timeoutMs) });
    } catch (error) {
      throw dingtalkErrors.AALIS_DINGTALK_UNREACHABLE({
        what,
        reason: error instanceof Error ? error.message : String(error),
      });
    }
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    const errcode = Number(body.errcode ?? 0);
    if (response.status >= 400 || errcode !== 0 || typeof body.media_id !== 'string') {
      throw dingtalkErrors.AALIS_DINGTALK_API_FAILED(
        { what, status: response.status, reason: `${errcode} ${String(body.errmsg ?? 'no media_id')}`.trim() },
        { statusCode: response.status, isRetryable: response.status >= 500 },
      );
    }
    return body.media_id;
  }

  private async sendRobotMessage(
    target: { group: string } | { userId: string },
    msgKey: string,
    msgParam: string,
  ): Promise<void> {
    const path = 'group' in target ? '/v1.0/robot/groupMessages/send' : '/v1.0/robot/oToMessages/batchSend';
    const payload =
      'group' in target
        ? { robotCode: this.options.robotCode, openConversationId: target.group, msgKey, msgParam }
        : { robotCode: this.options.robotCode, userIds: [target.userId], msgKey, msgParam };
    await this.authorised(path, payload);
  }

  /** The temporary URL of a file a robot message points to by its downloadCode. */
  async downloadUrl(downloadCode: string): Promise<string> {
    const body = await this.authorised('/v1.0/robot/messageFiles/download', {
      downloadCode,
      robotCode: this.options.robotCode,
    });
    if (typeof body.downloadUrl !== 'string') {
      throw dingtalkErrors.AALIS_DINGTALK_API_FAILED({
        what: 'messageFiles/download',
        status: 200,
        reason: 'no downloadUrl',
      });
    }
    return body.downloadUrl;
  }

  private async authorised(path: string, payload: Record<string, unknown>): Promise<Record<string, unknown>> {
    for (let attempt = 0; ; attempt++) {
      const token = await this.accessToken();
      const answer = await this.request(path, `${this.base}${path}`, payload, { 'x-acs-dingtalk-access-token': token });
      if (answer.status === 429 && attempt === 0) {
        await wait(answer.retryAfterS ?? 1);
        continue;
      }
      if (answer.status === 401 && attempt === 0) {
        this.token.drop();
        continue;
      }
      if (answer.status >= 400) {
        throw dingtalkErrors.AALIS_DINGTALK_API_FAILED(
          {
            what: path,
            status: answer.status,
            reason:
              `${String(answer.body.code ?? '')} ${String(answer.body.message ?? '')}`.trim() || 'no reason given',
          },
          { statusCode: answer.status, isRetryable: answer.status >= 500 || answer.status === 429 },
        );
      }
      return answer.body;
    }
  }

  private async request(
    what: string,
    url: string,
    payload: Record<string, unknown>,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: Record<string, unknown>; retryAfterS?: number }> {
    let answer: PlatformAnswer;
    try {
      answer = await platformRequest(url, {
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(payload),
        timeoutMs: this.options.timeoutMs,
      });
    } catch (error) {
      throw dingtalkErrors.AALIS_DINGTALK_UNREACHABLE({
        what,
        reason: error instanceof Error ? error.message : String(error),
      });
    }
    const text = answer.text;
    let body: Record<string, unknown> = {};
    try {
      const parsed: unknown = text === '' ? {} : JSON.parse(text);
      if (typeof parsed === 'object' && parsed !== null) body = parsed as Record<string, unknown>;
    } catch {
      body = { message: text.slice(0, 200) };
    }
    const retryAfter = Number(answer.header('retry-after'));
    return {
      status: answer.status,
      body,
      ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterS: retryAfter } : {}),
    };
  }
}

function wait(seconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.min(MAX_WAIT_S, Math.max(0.05, seconds)) * 1000));
}
