// /clear: clears the session's message history through the memory 'memory:clear' chain (inside
// AgentService.clearing when an agent is present); `-t <type>` for other kinds goes to 'commands:clear' listeners.
import type { BoundAgent } from '@aalis/api-agent';
import type { RequiredLevel } from '@aalis/api-authority';
import type { CommandDefinition } from '@aalis/api-commands';
import type { MemoryService } from '@aalis/api-memory';
import { type Events, type ServiceHandle, textRef } from '@aalis/core';
import { clearErrors } from './texts.js';

/** The /clear type that clears the message history (the default when -t is absent). */
export const HISTORY_CLEAR_TYPE = 'context';

export function clearTypesOf(flags: Readonly<Record<string, string | true>>): string[] {
  const value = flags.t ?? flags.type;
  if (value === undefined || value === true) return [HISTORY_CLEAR_TYPE];
  const types = value
    .split(',')
    .map((type) => type.trim().toLowerCase())
    .filter((type) => type !== '');
  return types.length > 0 ? [...new Set(types)] : [HISTORY_CLEAR_TYPE];
}

export function clearCommand({
  memory,
  agent,
  events,
  level,
}: {
  memory: ServiceHandle<MemoryService>;
  agent: ServiceHandle<BoundAgent>;
  events: Pick<Events, 'emitAsync'>;
  level: RequiredLevel;
}): CommandDefinition {
  return {
    name: 'clear',
    description: textRef('commands.clear.description'),
    usage: textRef('commands.clear.usage'),
    level,
    async handler({ sessionId, platform, args, flags, caller, t }) {
      // Clearing cannot be undone: `/clear vector` (the -t forgotten) or a mistyped flag clears nothing.
      const unexpected = [
        ...args,
        ...Object.keys(flags)
          .filter((flag) => flag !== 't' && flag !== 'type')
          .map((flag) => `-${flag}`),
      ];
      if (unexpected.length > 0) throw clearErrors.AALIS_COMMAND_CLEAR_ARGUMENT({ given: unexpected.join(' ') });
      const types = clearTypesOf(flags);
      const lines: string[] = [];
      if (types.includes(HISTORY_CLEAR_TYPE)) {
        if (!memory.available) return textRef('commands.clear.noMemory');
        const clear = () => memory.use.clear(sessionId);
        if (agent.available) await agent.use.clearing([sessionId], clear, '/clear');
        else await clear();
        lines.push(t(textRef('commands.clear.history')));
      }
      const others = types.filter((type) => type !== HISTORY_CLEAR_TYPE);
      if (others.length > 0) {
        const acknowledged = new Set<string>();
        await events.emitAsync('commands:clear', {
          sessionId,
          platform,
          types: others,
          caller,
          acknowledge: (type) => {
            acknowledged.add(type);
          },
        });
        const cleared = others.filter((type) => acknowledged.has(type));
        const unhandled = others.filter((type) => !acknowledged.has(type));
        if (cleared.length > 0) lines.push(t(textRef('commands.clear.types', { types: cleared.join(', ') })));
        if (unhandled.length > 0) lines.push(t(textRef('commands.clear.unhandled', { types: unhandled.join(', ') })));
      }
      return lines.join('\n');
    },
  };
}
