// @aalis/api-host-config: the host's configuration document. ownHostConfig — a plugin's own section, read and
// written by the plugin itself; hostConfig — any key, changed by the console and applied live (host-config-service).
import { defineService, type ServiceDescriptor } from '@aalis/core';

export * from './host-config-errors.js';
export * from './host-config-service.js';
export * from './mask-secrets.js';
export * from './plugin-installer-service.js';

export interface OwnHostConfig {
  /** The calling plugin instance's section as written in the document (before defaults). */
  read(): Promise<Record<string, unknown> | undefined>;
  /** Replaces keys of the section in the document, keeping comments and the other sections. */
  write(patch: Record<string, unknown>): Promise<void>;
}

export const ownHostConfig: ServiceDescriptor<OwnHostConfig> = defineService<OwnHostConfig>('ownHostConfig');
