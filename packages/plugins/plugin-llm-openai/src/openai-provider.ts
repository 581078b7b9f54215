// The llm service over an OpenAI-compatible Chat Completions endpoint: SSE streaming (or JSON), retries only
// while nothing has reached the caller, connect/headers/idle timeouts (per model), abort, and `llm:usage` per completed call. A proxy
// (config or environment) and extra trusted CAs (caFile) are settled at construction, so activation reports them.
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
  type HttpExchange,
  headerSecrets,
  maskUrlCredentials,
  OutputBudget,
  openWithRetries,
  ProviderConnection,
  parseBaseUrl,
  providerFailure,
  type RetryReport,
  SignalLinker,
  type Timeouts,
} from '@aalis/http-transport';
import type { Attachment } from '@aalis/schema-message';
import { type AssembledResponse, encodeChatRequest, thinkingFields, type WireModelList } from '@aalis/wire-openai';
import type { OpenAiConfig } from './config-schema.js';
import { ModelDiscovery } from './model-discovery.js';
import { buildModelTable, type ModelEntry } from './model-table.js';
import { type ReadProgress, readResponse } from './read-response.js';

/** The longest wait for the model list's headers and body (it is small and immediate on any server). */
const LISTING_WAIT_MS = 10_000;

export interface OpenAiProviderOptions {
  instanceId: string;
  config: OpenAiConfig;
  events: Pick<Events, 'emit'>;
  logger: Logger;
  i18n: I18n;
  /** Aborted when the plugin deactivates; in-flight calls end with AALIS_LLM_ABORTED. */
  shutdown?: AbortSignal;
}

export class OpenAiProvider implements LlmService {
  private table: ModelEntry[];
  private modelList: readonly ModelInfo[];
  /** Proxy, CAs and the secrets removed from every text that leaves the provider (the API key, the proxy password). */
  private readonly connection: ProviderConnection;
  /** The API root without the credentials a baseUrl may carry: what requests use and what errors and logs show. */
  readonly baseUrl: string;
  private readonly headers: Record<string, string>;
  private readonly instanceId: string;
  private readonly config: OpenAiConfig;
  private readonly events: Pick<Events, 'emit'>;
  private readonly logger: Logger;
  private readonly i18n: I18n;
  private readonly shutdown: AbortSignal | undefined;
  /** Links each call's signal to `shutdown` with one listener on it in all. */
  private readonly signals: SignalLinker;
  private readonly discovery: ModelDiscovery;

  constructor({ instanceId, config, events, logger, i18n, shutdown }: OpenAiProviderOptions) {
    this.instanceId = instanceId;
    this.config = config;
    this.events = events;
    this.logger = logger;
    this.i18n = i18n;
    this.shutdown = shutdown;
    this.signals = new SignalLinker(shutdown);
    const parsed = parseBaseUrl(config.baseUrl);
    if (!parsed.ok) {
      throw coreErrors.AALIS_CONFIG_INVALID({
        plugin: instanceId,
        field: 'baseUrl',
        expected: this.i18n.t({ key: 'llm-openai.baseUrl.expected' }),
        received: JSON.stringify(maskUrlCredentials(config.baseUrl)),
      });
    }
    const endpoint = parsed.endpoint;
    this.baseUrl = endpoint.root;
    this.headers = { 'content-type': 'application/json', ...config.headers };
    // Credentials in the URL are sent as Basic authentication (as curl does); an apiKey (Bearer) wins over them.
    const hasAuthorization = Object.keys(this.headers).some((name) => name.toLowerCase() === 'authorization');
    if (config.apiKey) this.headers.authorization = `Bearer ${config.apiKey}`;
    else if (endpoint.basicAuthorization && !hasAuthorization) this.headers.authorization = endpoint.basicAuthorization;
    this.table = buildModelTable({ instanceId, config });
    this.modelList = this.table.map((entry) => entry.info);
    this.connection = new ProviderConnection({
      plugin: instanceId,
      baseUrl: this.baseUrl,
      config,
      secrets: [config.apiKey, ...endpoint.secrets, ...headerSecrets(config.headers)],
      announce: { logger, i18n },
    });
    this.discovery = new ModelDiscovery({
      refresh: () => this.refreshModels(),
      onFound: () =>
        this.logger.info('the server lists its models now', {
          provider: this.instanceId,
          models: this.modelList.map((model) => model.id),
        }),
      onFailed: (error, nextDelayMs) =>
        this.logger.debug('the server still cannot list its models; trying again later', {
          provider: this.instanceId,
          nextDelayMs,
          error: error instanceof Error ? error.message : String(error),
        }),
    });
  }

  models(): readonly ModelInfo[] {
    this.discovery.nudge();
    return this.modelList;
  }

  /** The server could not list its models (it is down?): list them again in the background until it can. */
  retryModelDiscovery(): void {
    this.discovery.start();
  }

  /** Lists the server's models (GET /models) and merges them with the configured ones. */
  async refreshModels(): Promise<readonly ModelInfo[]> {
    const serverModels = await this.listServerModels();
    this.table = buildModelTable({ instanceId: this.instanceId, config: this.config, serverModels });
    this.modelList = this.table.map((entry) => entry.info);
    return this.modelList;
  }

  chatStream(request: ChatRequest, options: ChatOptions = {}): AsyncIterable<ChatStreamEvent> {
    return this.call(request, options, true);
  }

  async chat(request: ChatRequest, options: ChatOptions = {}): Promise<ChatResponse> {
    let response: ChatResponse | undefined;
    for await (const event of this.call(request, options, false))
      if (event.type === 'response') response = event.response;
    return response!;
  }

  /** Closes idle keep-alive connections. */
  destroy(): void {
    this.discovery.stop();
    this.connection.destroy();
  }

  // --- one call ----------------------------------------------------------------------------------------------

  private async *call(request: ChatRequest, options: ChatOptions, stream: boolean): AsyncGenerator<ChatStreamEvent> {
    const entry = this.entryFor(request.model);
    const context = this.context(entry.info.id, entry.timeouts);
    const linked = this.signals.link(options.signal);
    const signal = linked.signal;
    try {
      if (signal?.aborted) throw abortedError(context, false);
      // UTF-8 JSON from the cached JSON of the tools and the frozen history messages: only what is new is encoded.
      const body = this.body(entry, request, stream);
      const started = performance.now();
      let assembled: AssembledResponse | undefined;
      let warned = false;
      const onUnknownLine = (line: string) => {
        if (warned) return;
        warned = true;
        this.logger.warn('the stream carried a line that is not SSE; it was skipped', {
          provider: this.instanceId,
          model: entry.info.id,
          line: context.redact(line.slice(0, 200)),
        });
      };
      for (let attempt = 0; assembled === undefined; attempt++) {
        const opened = await this.open({ path: '/chat/completions', body, signal, context, stream, attempt });
        attempt = opened.attempt;
        const progress: ReadProgress = { outputStarted: false };
        try {
          // Cut a response that runs far past what was asked for (a broken server streaming without end).
          const budget = new OutputBudget(request.maxOutputTokens ?? entry.info.maxOutputTokens);
          const reader = readResponse({ exchange: opened.exchange, progress, budget, onUnknownLine });
          try {
            for (let read = await reader.next(); ; read = await reader.next()) {
              if (read.done) {
                assembled = read.value;
                break;
              }
              // Each event through this generator only (not a yield* of the reader's own): one async hop less each.
              for (const event of read.value) yield event;
            }
          } finally {
            // The caller stopped reading mid-stream: end the reader too (its read loop clears the idle timer).
            if (assembled === undefined) await reader.return(undefined as unknown as AssembledResponse).catch(() => {});
          }
        } catch (error) {
          // Nothing reached the caller yet (the body broke before its first event): a retry is invisible.
          await backOffBodyFailure({
            error,
            context,
            outputStarted: progress.outputStarted,
            signal,
            attempt,
            retry: this.config.retry,
            onRetry: (report) => this.logRetry(report),
          });
        } finally {
          opened.exchange.close();
        }
      }
      const response: ChatResponse = {
        content: assembled.content,
        toolCalls: assembled.toolCalls,
        usage: assembled.usage,
        finishReason: assembled.finishReason,
        model: entry.info.id,
      };
      if (assembled.reasoningContent !== undefined) response.reasoningContent = assembled.reasoningContent;
      this.events.emit(
        'llm:usage',
        usageEvent({
          request,
          usage: response.usage,
          provider: this.instanceId,
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

  private body(entry: ModelEntry, request: ChatRequest, stream: boolean): Uint8Array {
    const level = effectiveThinkingLevel({ model: entry.info, requested: request.thinkingLevel });
    return encodeChatRequest({
      model: entry.info.model,
      messages: request.messages,
      vision: entry.info.capabilities.vision,
      includeReasoning: entry.sendReasoning,
      describeAttachment: (attachment) => this.describeAttachment(attachment),
      stream,
      includeUsage: this.config.streamUsage,
      tools: request.tools,
      toolChoice: request.toolChoice,
      temperature: request.temperature,
      maxTokens: request.maxOutputTokens,
      maxTokensField: entry.maxTokensField,
      extra: level === undefined ? undefined : thinkingFields({ level, param: entry.thinkingParam }),
    });
  }

  private describeAttachment(attachment: Attachment): string {
    const name = attachment.name ?? attachment.type;
    return attachment.description
      ? this.i18n.t({ key: 'llm-openai.attachment.described', params: { name, description: attachment.description } })
      : this.i18n.t({ key: 'llm-openai.attachment.unseen', params: { name } });
  }

  private open({
    path,
    body,
    signal,
    context,
    stream,
    attempt,
    retry = this.config.retry,
    available = () => this.availableModels(),
  }: {
    path: string;
    body?: Uint8Array;
    signal: AbortSignal | undefined;
    context: ErrorContext;
    stream: boolean;
    attempt?: number;
    retry?: OpenAiConfig['retry'];
    /** For a model-not-found error: what the server offers. */
    available?: () => Promise<string[]>;
  }): Promise<{ exchange: HttpExchange; attempt: number }> {
    return openWithRetries({
      url: new URL(this.baseUrl + path),
      headers: { ...this.headers, accept: stream ? 'text/event-stream' : 'application/json' },
      body,
      signal,
      context,
      timeouts: context.timeouts,
      retry,
      agents: this.connection.agents,
      attempt,
      available,
      onRetry: (report) => this.logRetry(report),
    });
  }

  private logRetry(report: RetryReport): void {
    this.logger.debug('retrying the call', { provider: this.instanceId, ...report });
  }

  /**
   * GET /models. A server answers it at once, so it waits at most LISTING_WAIT_MS for the headers and the body, and is
   * not retried: activation (which waits for it) is not held up by a dead server; ModelDiscovery asks again later.
   */
  private async listServerModels(): Promise<string[]> {
    const { timeouts } = this.config;
    const context = this.context(this.instanceId, {
      connectMs: timeouts.connectMs,
      headersMs: Math.min(timeouts.headersMs, LISTING_WAIT_MS),
      idleMs: Math.min(timeouts.idleMs, LISTING_WAIT_MS),
    });
    let opened: { exchange: HttpExchange };
    try {
      opened = await this.open({
        path: '/models',
        signal: this.shutdown,
        context,
        stream: false,
        retry: { ...this.config.retry, maxRetries: 0 },
        // Listing the models again to word a failed listing would ask the same failing URL forever.
        available: async () => this.table.map((entry) => entry.info.model),
      });
    } catch (error) {
      // A 404 whose page mentions "model" ("Cannot GET /models": a base URL without /v1) is the URL, not a model.
      if (llmErrors.AALIS_LLM_MODEL_NOT_FOUND.is(error)) {
        throw llmErrors.AALIS_LLM_ENDPOINT_NOT_FOUND(
          {
            provider: this.instanceId,
            url: `${this.baseUrl}/models`,
            providerMessage: String(error.details.providerMessage ?? ''),
          },
          { statusCode: 404, details: { status: 404 } },
        );
      }
      throw error;
    }
    const { exchange } = opened;
    try {
      const list = JSON.parse(await exchange.text()) as WireModelList;
      return (list.data ?? []).map((model) => model.id).filter((id) => typeof id === 'string');
    } catch (error) {
      throw providerFailure({ error, context, outputStarted: false, signal: this.shutdown });
    } finally {
      exchange.close();
    }
  }

  /** For a model-not-found error: what the server offers, or what we know when it cannot say. */
  private async availableModels(): Promise<string[]> {
    try {
      return await this.listServerModels();
    } catch {
      return this.table.map((entry) => entry.info.model);
    }
  }

  // --- helpers -----------------------------------------------------------------------------------------------

  private entryFor(model: string | undefined): ModelEntry {
    const entry = model === undefined ? this.table[0] : this.table.find((candidate) => candidate.info.id === model);
    if (entry) return entry;
    throw llmErrors.AALIS_LLM_MODEL_NOT_FOUND({
      provider: this.instanceId,
      model: model ?? this.i18n.t({ key: 'llm-openai.none' }),
      providerMessage: this.i18n.t(MODEL_NOT_LISTED),
      available: this.modelList.map((info) => info.id).join(', ') || this.i18n.t({ key: 'llm-openai.none' }),
    });
  }

  private context(model: string, timeouts: Timeouts): ErrorContext {
    return this.connection.errorContext({ model, timeouts, t: (text) => this.i18n.t(text) });
  }
}
