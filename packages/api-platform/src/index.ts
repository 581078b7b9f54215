// @aalis/api-platform: the platforms the host is connected to (cli, webui, IM adapters), her account on each and
// what each can do. Platform plugins register themselves; the agent reads her identity for reply metadata.
import { type Disposer, defineService, type ServiceDescriptor } from '@aalis/core';

export interface PlatformInfo {
  /** Platform id as used in IncomingMessage.platform (an adapter instance id). */
  id: string;
  /** Platform type for the settings layer of that name (e.g. 'onebot', 'web', 'local'). */
  type: string;
  /** Her own account on this platform, when it has accounts. */
  selfId?: string;
  capabilities: {
    /** Can show streamed fragments (outbound:stream). */
    streaming: boolean;
    /** Can quote an earlier message (OutgoingMessage.replyTo). */
    quoting: boolean;
    /** Has rooms with several people. */
    rooms: boolean;
  };
}

export interface PlatformService {
  /** Registers a platform (registrar: withdrawn with the registering plugin). */
  register(info: PlatformInfo): Disposer;
  get(id: string): PlatformInfo | undefined;
  list(): PlatformInfo[];
}

export const platform: ServiceDescriptor<PlatformService> = defineService<PlatformService>('platform', {
  registrars: ['register'],
});
