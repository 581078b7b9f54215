// @aalis/api-media: turns attachments into text for models that cannot see them. A media plugin decides per call
// (from agent:llm:before's acceptsImages) whether a turn's attachments go as images or as descriptions.
import { defineService, type ServiceDescriptor } from '@aalis/core';
import type { Attachment } from '@aalis/schema-message';

export interface DescribeOptions {
  signal?: AbortSignal;
  /** The session the description is made for (accounting, and where a failure is told). */
  sessionId?: string;
  /** A question about the image ("what does the sign say?"); without, a general description. */
  question?: string;
}

export interface MediaService {
  /**
   * A text description of an attachment (an image; cached by content by the implementation, so the same image
   * with the same question costs no second model call); undefined when it cannot describe it.
   */
  describe(attachment: Attachment, options?: DescribeOptions): Promise<string | undefined>;
  /**
   * Whether a voice recording sent with a message becomes its text (a speech-to-text endpoint is configured), so a
   * front door can offer recording. Absent: it does not.
   */
  transcribes?(): boolean;
}

export const media: ServiceDescriptor<MediaService> = defineService<MediaService>('media');

/** Tool name of the media implementation's second look at an image from the history. */
export const DESCRIBE_IMAGE_TOOL = 'describe_image';
