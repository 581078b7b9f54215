// @aalis/api-host-config: ownHostConfig — a plugin's own section of the host's configuration document (the YAML
// file), read and written by the plugin itself (e.g. to persist a value the user changed at run time).
import { defineService, type ServiceDescriptor } from '@aalis/core';

export interface OwnHostConfig {
  /** The calling plugin instance's section as written in the document (before defaults). */
  read(): Promise<Record<string, unknown> | undefined>;
  /** Replaces keys of the section in the document, keeping comments and the other sections. */
  write(patch: Record<string, unknown>): Promise<void>;
}

export const ownHostConfig: ServiceDescriptor<OwnHostConfig> = defineService<OwnHostConfig>('ownHostConfig');
