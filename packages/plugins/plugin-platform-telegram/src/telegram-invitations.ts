// Being added to a group (Telegram's `my_chat_member` update: her status goes from left/kicked to member or
// administrator), the Bot API's counterpart of a group invitation; Telegram has no friend requests (anyone may
// write to a bot). Added by an owner or an allow-listed account: she stays. Otherwise `invitations.policy`: 'accept'
// (stay), 'refuse' (leaveChat), or 'ask' (the default): a host notice in each owner's private chat with her; the
// owners-only tool telegram_invitation_answer leaves the group on a refusal. Waiting invitations are kept in the
// storage engine's database (platform-room's pending-request store, bounded): a restart keeps them, and on
// PostgreSQL any process settles them.
import type { Tool } from '@aalis/api-tools';
import { defineCatalogue, type Logger, type TextRef, textRef } from '@aalis/core';
import { newRequestId, OwnerRequests, type OwnerRequestsOptions } from '@aalis/platform-room';

export const INVITATION_ANSWER_TOOL = 'telegram_invitation_answer';

defineCatalogue({
  'zh-CN': {
    'telegram.invitation.notice':
      '她被拉进了 Telegram 群「{title}」（群 {chatId}），拉她的是 {who}（账号 {userId}，请求 id {id}）。请问 owner 是否留在这个群；owner 答复后用 {tool} 工具办理（id 照抄，approve 为留下与否）。',
    'telegram.invitation.tool':
      '办理一条等 owner 答复的 Telegram 入群邀请：id 是宿主通知里给的请求 id，approve 为 true 留在群里、false 退群。只在 owner 明确答复之后调用。',
    'telegram.invitation.stay': '留在群 {chatId}。',
    'telegram.invitation.left': '已退出群 {chatId}。',
    'telegram.invitation.unknown': '没有等待答复的邀请 {id}（可能已经办理过，或已过期）。',
  },
  en: {
    'telegram.invitation.notice':
      'She was added to the Telegram group "{title}" (chat {chatId}) by {who} (account {userId}, request id {id}). Ask the owner whether she should stay; once the owner answers, settle it with the {tool} tool (copy the id; approve says whether to stay).',
    'telegram.invitation.tool':
      "Settles a Telegram group invitation waiting for the owner's answer: id is the request id from the host notice, approve true to stay in the group, false to leave it. Call it only after the owner clearly answered.",
    'telegram.invitation.stay': 'Staying in chat {chatId}.',
    'telegram.invitation.left': 'Left chat {chatId}.',
    'telegram.invitation.unknown':
      'No invitation {id} is waiting for an answer (it may have been settled already, or expired).',
  },
});

export interface InvitationRules {
  policy: 'ask' | 'accept' | 'refuse';
  allow: readonly string[];
}

export interface ChatMemberUpdate {
  chat?: { id?: number; type?: string; title?: string };
  from?: { id?: number; first_name?: string; username?: string };
  old_chat_member?: { status?: string };
  new_chat_member?: { status?: string; user?: { id?: number } };
}

export interface TelegramInvitationsOptions extends OwnerRequestsOptions {
  rules: InvitationRules;
  call(method: string, params: Record<string, unknown>): Promise<unknown>;
  t(text: TextRef): string;
  logger: Logger;
}

export class TelegramInvitations {
  private readonly requests: OwnerRequests;

  constructor(private readonly options: TelegramInvitationsOptions) {
    this.requests = new OwnerRequests(options);
  }

  async handle(update: ChatMemberUpdate): Promise<void> {
    const chatId = update.chat?.id;
    const type = update.chat?.type;
    const before = update.old_chat_member?.status;
    const after = update.new_chat_member?.status;
    const joined = (before === 'left' || before === 'kicked') && (after === 'member' || after === 'administrator');
    if (typeof chatId !== 'number' || (type !== 'group' && type !== 'supergroup') || !joined) return;
    const userId = update.from?.id === undefined ? '' : String(update.from.id);
    const policy = this.requests.trusted(userId, this.options.rules.allow) ? 'accept' : this.options.rules.policy;
    this.options.logger.info(`Telegram: added to chat ${chatId} by ${userId || 'someone'} → ${policy}`);
    if (policy === 'accept') return;
    if (policy === 'refuse') {
      await this.leave(chatId);
      return;
    }
    const id = newRequestId();
    const who = update.from?.username ? `@${update.from.username}` : (update.from?.first_name ?? userId);
    const content = this.options.t(
      textRef('telegram.invitation.notice', {
        title: update.chat?.title ?? '',
        chatId,
        who,
        userId,
        id,
        tool: INVITATION_ANSWER_TOOL,
      }),
    );
    await this.requests.ask(
      { id, kind: 'invitation', data: { chatId: String(chatId) } },
      { content, source: 'telegram-invitation', hostNotice: { kind: 'telegram-invitation', id } },
    );
  }

  tool(): Tool<{ id: string; approve: boolean }> {
    const t = this.options.t;
    return this.requests.answerTool({
      name: INVITATION_ANSWER_TOOL,
      description: t(textRef('telegram.invitation.tool')),
      read: (taken) => {
        const chatId = taken.kind === 'invitation' ? Number(taken.data.chatId) : Number.NaN;
        return Number.isSafeInteger(chatId) ? chatId : undefined;
      },
      settle: async (chatId, approve) => {
        if (approve) return t(textRef('telegram.invitation.stay', { chatId }));
        await this.leave(chatId);
        return t(textRef('telegram.invitation.left', { chatId }));
      },
      unknown: (id) => t(textRef('telegram.invitation.unknown', { id })),
    });
  }

  private async leave(chatId: number): Promise<void> {
    await this.options.call('leaveChat', { chat_id: chatId });
    this.options.logger.info(`Telegram: left chat ${chatId}`);
  }
}
