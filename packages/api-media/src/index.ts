// @aalis/api-media: turns attachments into text for models that cannot see them. A media plugin decides per call
// (from agent:llm:before's acceptsImages) whether a turn's attachments go as images or as descriptions.
import { defineService, type ServiceDescriptor } from '@aalis/core';
import type { Attachment } from '@aalis/schema-message';

export interface MediaService {
  /** A text description of an attachment (cached by the implementation); undefined when it cannot describe it. */
  describe(attachment: Attachment, options?: { signal?: AbortSignal; sessionId?: string }): Promise<string | undefined>;
}

export const media: ServiceDescriptor<MediaService> = defineService<MediaService>('media');
