// The llm service over the Anthropic Messages API: SSE streaming, thinking budgets, tools, images, prompt caching,
// and `llm:usage` with the cache figures. Transport, retries, timeouts, proxies, CAs and error mapping are the
// shared HTTP layer's (@aalis/http-transport): one implementation of each.
import {
  type ChatOptions,
  type ChatRequest,
  type ChatResponse,
  type ChatStreamEvent,
  effectiveThinkingLevel,
  type LlmService,
  llmErrors,
  MODEL_NOT_LISTED,
  type ModelInfo,
  usageEvent,
} from '@aalis/api-llm';
import { coreErrors, type Events, type I18n, type Logger } from '@aalis/core';
import {
  abortedError,
  backOffBodyFailure,
  type ErrorContext,
  headerSecrets,
  linkSignals,
  maskUrlCredentials,
  OutputBudget,
  openWithRetries,
  ProviderConnection,
  parseBaseUrl,
  type RetryReport,
  type Timeouts,
} from '@aalis/http-transport';
import type { Attachment } from '@aalis/schema-message';
import { buildMessagesRequest } from './build-messages-request.js';
import type { AnthropicConfig } from './config-schema.js';
import { MessagesStreamDecoder } from './messages-stream-decoder.js';
import { type AnthropicModelEntry, buildModelTable, type ThinkingLevelId } from './model-table.js';

export interface AnthropicProviderOptions {
  instanceId: string;
  config: AnthropicConfig;
  /** The key to send (config apiKey, else ANTHROPIC_API_KEY). */
  apiKey: string | undefined;
  events: Pick<Events, 'emit'>;
  logger: Logger;
  i18n: I18n;
  shutdown?: AbortSignal;
  env?: Readonly<Record<string, string | undefined>>;
}

export class AnthropicProvider implements LlmService {
  readonly baseUrl: string;
  private readonly messagesUrl: URL;
  private readonly table: AnthropicModelEntry[];
  private readonly modelList: readonly ModelInfo[];
  private readonly connection: ProviderConnection;
  private readonly headers: Record<string, string>;
  private readonly options: AnthropicProviderOptions;

  constructor(options: AnthropicProviderOptions) {
    this.options = options;
    const { instanceId, config, apiKey, i18n } = options;
    const parsed = parseBaseUrl(config.baseUrl);
    if (!parsed.ok) {
      throw coreErrors.AALIS_CONFIG_INVALID({
        plugin: instanceId,
        field: 'baseUrl',
        expected: i18n.t({ key: 'llm-anthropic.baseUrl.expected' }),
        received: JSON.stringify(maskUrlCredentials(config.baseUrl)),
      });
    }
    this.baseUrl = parsed.endpoint.root.replace(/\/v1$/, '');
    this.messagesUrl = new URL(`${this.baseUrl}/v1/messages`);
    this.headers = {
      'content-type': 'application/json',
      'anthropic-version': config.anthropicVersion,
      ...config.headers,
      ...(apiKey ? { 'x-api-key': apiKey } : {}),
    };
    this.table = buildModelTable({ instanceId, config, t: (text) => i18n.t(text) });
    this.modelList = this.table.map((entry) => entry.info);
    this.connection = new ProviderConnection({
      plugin: instanceId,
      baseUrl: this.baseUrl,
      config,
      secrets: [apiKey, ...parsed.endpoint.secrets, ...headerSecrets(config.headers)],
      env: options.env,
      announce: { logger: options.logger, i18n },
    });
  }

  models(): readonly ModelInfo[] {
    return this.modelList;
  }

  chatStream(request: ChatRequest, options: ChatOptions = {}): AsyncIterable<ChatStreamEvent> {
    return this.call(request, options);
  }

  async chat(request: ChatRequest, options: ChatOptions = {}): Promise<ChatResponse> {
    let response: ChatResponse | undefined;
    for await (const event of this.call(request, options)) if (event.type === 'response') response = event.response;
    return response!;
  }

  destroy(): void {
    this.connection.destroy();
  }

  private async *call(request: ChatRequest, options: ChatOptions): AsyncGenerator<ChatStreamEvent> {
    const entry = this.entryFor(request.model);
    const context = this.context(entry.info.id, entry.timeouts);
    const linked = linkSignals({ first: options.signal, second: this.options.shutdown });
    const signal = linked.signal;
    try {
      if (signal?.aborted) throw abortedError(context, false);
      const maxTokens = request.maxOutputTokens ?? entry.info.maxOutputTokens;
      const level = effectiveThinkingLevel({ model: entry.info, requested: request.thinkingLevel }) as
        | ThinkingLevelId
        | undefined;
      const body = JSON.stringify(
        buildMessagesRequest({
          model: entry.info.model,
          request,
          maxTokens,
          thinkingBudget:
            level === undefined || level === 'off' ? undefined : this.options.config.thinkingBudgets[level],
          vision: entry.info.capabilities.vision,
          promptCaching: this.options.config.promptCaching,
          describeAttachment: (attachment) => this.describeAttachment(attachment),
          historyOmitted: this.options.i18n.t({ key: 'llm-anthropic.history.omitted' }),
        }),
      );
      const started = performance.now();
      let assembled: ReturnType<MessagesStreamDecoder['end']> | undefined;
      for (let attempt = 0; assembled === undefined; attempt++) {
        const opened = await openWithRetries({
          url: this.messagesUrl,
          headers: { ...this.headers, accept: 'text/event-stream' },
          body,
          signal,
          context,
          timeouts: entry.timeouts,
          retry: this.options.config.retry,
          agents: this.connection.agents,
          attempt,
          available: async () => this.table.map((candidate) => candidate.info.model),
          onRetry: (report) => this.logRetry(report),
        });
        attempt = opened.attempt;
        let outputStarted = false;
        try {
          const budget = new OutputBudget(maxTokens);
          const decoder = new MessagesStreamDecoder();
          for await (const chunk of opened.exchange.chunks()) {
            budget.received(chunk.length);
            const deltas = decoder.push(chunk);
            for (const delta of deltas) {
              budget.deliver(delta);
              outputStarted = true;
              yield delta;
            }
            decoder.throwIfFailed();
          }
          assembled = decoder.end();
        } catch (error) {
          // `overloaded_error` is Anthropic's 529 sent as a stream event: retried like a cut stream.
          await backOffBodyFailure({
            error,
            context,
            outputStarted,
            signal,
            attempt,
            retry: this.options.config.retry,
            onRetry: (report) => this.logRetry(report),
            retryStreamError: (streamError) =>
              streamError.kind === 'truncated' || streamError.error?.type === 'overloaded_error',
          });
        } finally {
          opened.exchange.close();
        }
      }
      const response: ChatResponse = { ...assembled, model: entry.info.id };
      this.options.events.emit(
        'llm:usage',
        usageEvent({
          request,
          usage: response.usage,
          provider: this.options.instanceId,
          model: entry.info.id,
          latencyMs: Math.round(performance.now() - started),
          prices: entry.prices,
        }),
      );
      yield { type: 'response', response };
    } finally {
      linked.unlink();
    }
  }

  private describeAttachment(attachment: Attachment): string {
    const name = attachment.name ?? attachment.type;
    const { i18n } = this.options;
    return attachment.description
      ? i18n.t({ key: 'llm-anthropic.attachment.described', params: { name, description: attachment.description } })
      : i18n.t({ key: 'llm-anthropic.attachment.unseen', params: { name } });
  }

  private entryFor(model: string | undefined): AnthropicModelEntry {
    const entry = model === undefined ? this.table[0] : this.table.find((candidate) => candidate.info.id === model);
    if (entry) return entry;
    const none = this.options.i18n.t({ key: 'llm-anthropic.none' });
    throw llmErrors.AALIS_LLM_MODEL_NOT_FOUND({
      provider: this.options.instanceId,
      model: model ?? none,
      providerMessage: this.options.i18n.t(MODEL_NOT_LISTED),
      available: this.modelList.map((info) => info.id).join(', ') || none,
    });
  }

  private context(model: string, timeouts: Timeouts): ErrorContext {
    return this.connection.errorContext({ model, timeouts, t: (text) => this.options.i18n.t(text) });
  }

  private logRetry(report: RetryReport): void {
    this.options.logger.debug('retrying the call', { provider: this.options.instanceId, ...report });
  }
}
