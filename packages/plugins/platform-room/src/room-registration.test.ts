import type { PlatformInfo, PlatformService } from '@aalis/api-platform';
import type { ServiceHandle } from '@aalis/core';
import { describe, expect, it } from 'vitest';
import { roomRegistration } from './room-registration.js';

/** A registry that keeps what is registered, as the platform service does. */
function registry() {
  const entries = new Map<string, PlatformInfo>();
  const service: PlatformService = {
    register(info) {
      entries.set(info.id, info);
      return () => entries.delete(info.id);
    },
    get: (id) => entries.get(id),
    list: () => [...entries.values()],
    reportState: () => () => {},
    states: () => [],
  };
  const handle: ServiceHandle<PlatformService> = { use: service, available: true, provider: undefined };
  return { entries, handle };
}

describe('roomRegistration', () => {
  it('registers once with its account id, removes the entry on stop and never registers after', () => {
    const { entries, handle } = registry();
    const registration = roomRegistration(handle, { id: 'qq' });
    registration.register('bot-1');
    registration.register('bot-2');
    expect(entries.get('qq')).toEqual({
      id: 'qq',
      type: 'qq',
      selfId: 'bot-1',
      capabilities: { streaming: false, quoting: true, rooms: true },
    });
    registration.unregister();
    expect(entries.size).toBe(0);
    registration.register('bot-1');
    expect(entries.size).toBe(0);
  });

  it('without an account id and without quoting (WeCom)', () => {
    const { entries, handle } = registry();
    roomRegistration(handle, { id: 'wecom', quoting: false }).register();
    expect(entries.get('wecom')).toEqual({
      id: 'wecom',
      type: 'wecom',
      capabilities: { streaming: false, quoting: false, rooms: true },
    });
  });
});
