// Friend requests and group invitations (OneBot `request` events): accepted at once from owners and the allow-list,
// refused, or — the default — put to the owners: a host notice in each owner's private chat with her on QQ, whose
// answer the model settles with the onebot_request_answer tool (owners only). Requests waiting for an answer are
// kept in the storage engine's database (platform-room's pending-request store, bounded): a restart keeps them, and on
// PostgreSQL the process that hears the owner's answer settles a request another process received.
import type { Tool } from '@aalis/api-tools';
import type { Logger, TextRef } from '@aalis/core';
import { textRef } from '@aalis/core';
import { newRequestId, OwnerRequests, type OwnerRequestsOptions, requestNote } from '@aalis/platform-room';
import './onebot-request-texts.js';

export const REQUEST_ANSWER_TOOL = 'onebot_request_answer';
export const REQUEST_NOTICE_KIND = 'onebot-request';

export type RequestPolicy = 'accept' | 'refuse' | 'ask';

export interface RequestRules {
  friend: RequestPolicy;
  groupInvite: RequestPolicy;
  /** QQ numbers whose requests and invitations are accepted at once (owners always are). */
  allow: readonly string[];
}

interface PendingRequest {
  id: string;
  kind: 'friend' | 'groupInvite';
  flag: string;
  subType?: string;
  userId: string;
  groupId?: string;
}

export interface OneBotRequestsOptions extends OwnerRequestsOptions {
  rules: RequestRules;
  call(action: string, params: Record<string, unknown>): Promise<unknown>;
  t(text: TextRef): string;
  logger: Logger;
}

export class OneBotRequests {
  private readonly requests: OwnerRequests;

  constructor(private readonly options: OneBotRequestsOptions) {
    this.requests = new OwnerRequests(options);
  }

  /** Handles one `request` event; other events are not its business. */
  async handle(event: Record<string, unknown>): Promise<void> {
    const requestType = event.request_type;
    const flag = event.flag === undefined ? '' : String(event.flag);
    const userId = event.user_id === undefined ? '' : String(event.user_id);
    if (flag === '' || userId === '') return;
    let request: PendingRequest;
    if (requestType === 'friend') {
      request = { id: newRequestId(), kind: 'friend', flag, userId };
    } else if (requestType === 'group' && event.sub_type === 'invite') {
      request = {
        id: newRequestId(),
        kind: 'groupInvite',
        flag,
        subType: 'invite',
        userId,
        groupId: String(event.group_id ?? ''),
      };
    } else {
      // Someone asking to join a group she administers is the group admins' business, not hers.
      this.options.logger.debug('OneBot: a request not handled', { requestType, subType: event.sub_type });
      return;
    }
    const { rules } = this.options;
    const policy: RequestPolicy = this.requests.trusted(userId, rules.allow) ? 'accept' : rules[request.kind];
    this.options.logger.info(`OneBot: ${request.kind} request ${request.id} from ${userId} → ${policy}`);
    if (policy !== 'ask') {
      await this.settle(request, policy === 'accept');
      return;
    }
    const comment = typeof event.comment === 'string' ? requestNote(event.comment) : '';
    const content = this.options.t(
      textRef(request.kind === 'friend' ? 'onebot.request.friend' : 'onebot.request.groupInvite', {
        id: request.id,
        userId,
        groupId: request.groupId ?? '',
        tool: REQUEST_ANSWER_TOOL,
      }),
    );
    const { id, kind, ...rest } = request;
    const data: Record<string, string> = {};
    for (const [key, value] of Object.entries(rest)) if (value !== undefined) data[key] = value;
    const told = await this.requests.ask(
      { id, kind, data },
      {
        content,
        source: 'onebot-request',
        hostNotice: {
          kind: REQUEST_NOTICE_KIND,
          id,
          ...(comment !== '' ? { untrusted: this.options.t(textRef('onebot.request.comment', { comment })) } : {}),
        },
      },
    );
    if (told === 0) {
      this.options.logger.warn(
        `OneBot: ${kind} request ${id} waits for an owner's answer, but no owner has a ${this.options.platform} account (owners: [{ platform: ${this.options.platform}, userId }])`,
      );
    }
  }

  /** The owners-only tool that settles a waiting request with the owner's answer. */
  tool(): Tool<{ id: string; approve: boolean }> {
    const t = this.options.t;
    return this.requests.answerTool({
      name: REQUEST_ANSWER_TOOL,
      description: t(textRef('onebot.request.tool')),
      read: (taken) => pendingOf(taken.id, taken.kind, taken.data),
      settle: async (request, approve) => {
        await this.settle(request, approve);
        const verdict = t(textRef(approve ? 'onebot.request.approve' : 'onebot.request.refuse'));
        return t(textRef('onebot.request.answered', { id: request.id, verdict }));
      },
      unknown: (id) => t(textRef('onebot.request.unknown', { id })),
      failed: (id, error) =>
        t(textRef('onebot.request.failed', { id, reason: error instanceof Error ? error.message : String(error) })),
    });
  }

  private async settle(request: PendingRequest, approve: boolean): Promise<void> {
    if (request.kind === 'friend') {
      await this.options.call('set_friend_add_request', { flag: request.flag, approve });
    } else {
      await this.options.call('set_group_add_request', {
        flag: request.flag,
        sub_type: request.subType ?? 'invite',
        type: request.subType ?? 'invite',
        approve,
      });
    }
    this.options.logger.info(`OneBot: ${request.kind} request ${request.id} ${approve ? 'accepted' : 'refused'}`);
  }
}

/** A stored request back in the shape settle() takes; undefined for a row of another shape. */
function pendingOf(id: string, kind: string, data: Record<string, string>): PendingRequest | undefined {
  if ((kind !== 'friend' && kind !== 'groupInvite') || !data.flag || !data.userId) return undefined;
  return {
    id,
    kind,
    flag: data.flag,
    userId: data.userId,
    ...(data.subType !== undefined ? { subType: data.subType } : {}),
    ...(data.groupId !== undefined ? { groupId: data.groupId } : {}),
  };
}
