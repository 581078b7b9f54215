// A poke (戳一戳) at her: OneBot's notice `notify`/`poke` whose target is her account. In a group it is the group's
// input, in a private chat the person's; the gateway's trigger phase decides whether it addresses her
// (triggerType 'poke', the session field triggerPoke).
import type { ChatType } from '@aalis/platform-room';

/** The triggerType a platform gives a poke (plugin-gateway's POKE_TRIGGER; the contract is the string). */
export const POKE_TRIGGER = 'poke';

export function onebotPoke(
  event: Record<string, unknown>,
  selfId: string | undefined,
): { chatType: ChatType; chatId: string; userId: string } | undefined {
  if (event.post_type !== 'notice' || event.notice_type !== 'notify' || event.sub_type !== 'poke') return undefined;
  const self = event.self_id === undefined ? selfId : String(event.self_id);
  const userId = event.user_id === undefined ? '' : String(event.user_id);
  if (self === undefined || String(event.target_id) !== self || userId === '' || userId === self) return undefined;
  const groupId = event.group_id === undefined ? '' : String(event.group_id);
  return groupId !== ''
    ? { chatType: 'group', chatId: groupId, userId }
    : { chatType: 'private', chatId: userId, userId };
}
