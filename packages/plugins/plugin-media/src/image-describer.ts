// Describes images with a model that can see: the one plugins.media.describeModel names, else the first configured
// model with vision. Each description is cached by the image's content hash (and the question, when one was asked)
// in the database and in a small in-process map, and concurrent requests for one image share one model call.
import { createHash } from 'node:crypto';
import { findModel, type LlmService, listModels, type ModelInfo } from '@aalis/api-llm';
import { AalisError, type I18n, type ProviderInfo, setBounded, textRef } from '@aalis/core';
import { type Attachment, isModelImageType } from '@aalis/schema-message';
import { fileTypeFromBuffer } from 'file-type';
import type { DescriptionStore } from './description-store.js';
import type { MediaConfig } from './media-config.js';
import { mediaErrors } from './media-texts.js';

export interface Description {
  text: string;
  /** The model that wrote it. */
  model: string;
  /** Whether it came from the cache (no model call). */
  cached: boolean;
}

/** How many descriptions the process keeps at hand besides the database. */
const MEMORY_ENTRIES = 500;

export class ImageDescriber {
  private readonly hashes = new WeakMap<Attachment, string>();
  private readonly recent = new Map<string, Description>();
  private readonly inFlight = new Map<string, Promise<Description>>();
  /** Model calls made (benchmarks and tests read it: an image seen again costs none). */
  modelCalls = 0;

  constructor(
    private readonly options: {
      store: DescriptionStore;
      config: MediaConfig;
      providers: () => readonly ProviderInfo<LlmService>[];
      i18n: I18n;
      onFallback?: (message: string) => void;
    },
  ) {}

  /** `img_` and the first 12 hex digits of the image's SHA-256: how the model names an image to describe_image. */
  imageId(attachment: Attachment): string {
    return `img_${this.hashOf(attachment).slice(0, 12)}`;
  }

  /** The model that would describe images now; undefined when none can see. */
  describingModel(): { model: ModelInfo; provider: ProviderInfo<LlmService> } | undefined {
    const providers = this.options.providers();
    const named = this.options.config.describeModel;
    if (named) {
      const found = findModel({ providers, value: named });
      if (found) return found;
    }
    const model = listModels({ providers }).find((candidate) => candidate.capabilities.vision && !candidate.offline);
    if (!model) return undefined;
    const provider = providers.find((candidate) => candidate.instanceId === model.provider);
    if (!provider) return undefined;
    if (named)
      this.options.onFallback?.(
        mediaErrors.AALIS_MEDIA_DESCRIBE_MODEL_UNKNOWN({ model: named, fallback: model.id }).message,
      );
    return { model, provider };
  }

  async describe(
    attachment: Attachment,
    options: { signal?: AbortSignal; sessionId?: string; question?: string } = {},
  ): Promise<Description> {
    const question = options.question?.trim() || undefined;
    const key = question === undefined ? this.hashOf(attachment) : `${this.hashOf(attachment)}\n${question}`;
    const remembered = this.recent.get(key);
    if (remembered) return { ...remembered, cached: true };
    const pending = this.inFlight.get(key);
    if (pending) return pending.then((description) => ({ ...description, cached: true }));
    const work = this.describeUncached(key, attachment, { ...options, question });
    this.inFlight.set(key, work);
    try {
      return await work;
    } finally {
      this.inFlight.delete(key);
    }
  }

  private async describeUncached(
    key: string,
    attachment: Attachment,
    options: { signal?: AbortSignal; sessionId?: string; question?: string },
  ): Promise<Description> {
    const stored = await this.options.store.get(key);
    if (stored) return this.remember(key, { text: stored.description, model: stored.model, cached: true });
    const image = await this.checkedImage(attachment);
    const chosen = this.describingModel();
    if (!chosen) throw mediaErrors.AALIS_MEDIA_NO_VISION_MODEL();
    const { i18n, config } = this.options;
    const prompt = options.question
      ? i18n.t(textRef('media.describe.question', { question: options.question }))
      : i18n.t(textRef('media.describe.prompt'));
    const signal = options.signal
      ? AbortSignal.any([options.signal, AbortSignal.timeout(config.describeTimeoutMs)])
      : AbortSignal.timeout(config.describeTimeoutMs);
    this.modelCalls++;
    let content: string;
    try {
      const response = await chosen.provider.impl.chat(
        {
          model: chosen.model.id,
          messages: [{ role: 'user', content: prompt, attachments: [image] }],
          sessionId: options.sessionId ?? 'media',
          purpose: 'subtask',
          maxOutputTokens: Math.min(chosen.model.maxOutputTokens, 1_024),
        },
        { signal },
      );
      content = response.content.trim();
    } catch (error) {
      options.signal?.throwIfAborted();
      const reason = AalisError.isInstance(error) ? error.localized(i18n.locale) : String(error);
      throw mediaErrors.AALIS_MEDIA_DESCRIBE_FAILED({ model: chosen.model.id, reason }, { cause: error });
    }
    if (content === '')
      throw mediaErrors.AALIS_MEDIA_DESCRIBE_FAILED({ model: chosen.model.id, reason: 'empty answer' });
    const text =
      content.length > config.maxDescriptionChars ? `${content.slice(0, config.maxDescriptionChars)}…` : content;
    await this.options.store.put({ key, description: text, model: chosen.model.id, createdAt: Date.now() });
    return this.remember(key, { text, model: chosen.model.id, cached: false });
  }

  private remember(key: string, description: Description): Description {
    setBounded(this.recent, key, description, MEMORY_ENTRIES);
    return description;
  }

  /** The image as the model gets it: inline bytes checked to be a real image of a type models take. */
  private async checkedImage(attachment: Attachment): Promise<Attachment> {
    const inline = inlineData(attachment);
    if (inline === undefined) {
      if (attachment.url && /^https?:\/\//i.test(attachment.url)) return { type: 'image', url: attachment.url };
      throw mediaErrors.AALIS_MEDIA_NO_IMAGE_DATA();
    }
    const size = Math.floor((inline.length * 3) / 4);
    if (size > this.options.config.maxImageBytes)
      throw mediaErrors.AALIS_MEDIA_IMAGE_TOO_LARGE({ size, limit: this.options.config.maxImageBytes });
    const head = Buffer.from(inline.slice(0, 5_500), 'base64');
    const type = await fileTypeFromBuffer(head);
    if (!type || !isModelImageType(type.mime)) throw mediaErrors.AALIS_MEDIA_NOT_AN_IMAGE();
    return { type: 'image', mimeType: type.mime, data: inline };
  }

  private hashOf(attachment: Attachment): string {
    let hash = this.hashes.get(attachment);
    if (hash === undefined) {
      const inline = inlineData(attachment);
      hash = createHash('sha256')
        .update(inline === undefined ? (attachment.url ?? '') : Buffer.from(inline, 'base64'))
        .digest('hex');
      // Frozen history messages keep their attachment objects from call to call: hashed once.
      this.hashes.set(attachment, hash);
    }
    return hash;
  }
}

function inlineData(attachment: Attachment): string | undefined {
  return attachment.data ?? /^data:[^,]*;base64,(.*)$/s.exec(attachment.url ?? '')?.[1];
}
