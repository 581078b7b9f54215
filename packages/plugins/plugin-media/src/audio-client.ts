// What the media plugin's two audio clients (transcription, speech) share: one OpenAI-compatible endpoint through
// the shared model endpoint client (@aalis/http-transport), its secrets redacted from what they report, closed with
// the plugin.
import type { I18n, Logger } from '@aalis/core';
import { ModelEndpoint, type ModelEndpointConfig, type ModelEndpointOptions } from '@aalis/http-transport';

export interface AudioClientOptions {
  i18n: I18n;
  logger: Logger;
  plugin: string;
}

export class AudioClient<Config extends ModelEndpointConfig> {
  protected readonly endpoint: ModelEndpoint;

  constructor(
    readonly config: Config,
    options: AudioClientOptions,
    endpoint: Pick<ModelEndpointOptions, 'path' | 'invalidUrl'>,
  ) {
    this.endpoint = new ModelEndpoint(config, { ...options, ...endpoint, retryLog: `${options.plugin} retried` });
  }

  redact(text: string): string {
    return this.endpoint.redact(text);
  }

  close(): void {
    this.endpoint.close();
  }
}
