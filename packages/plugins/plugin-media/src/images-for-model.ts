// agent:llm:before for a model that cannot see: each image in the call's messages gets a description (marked as
// one, with its id) on a copy of its message; the stored history is not touched. Sessions found without images
// are skipped until an input or a tool result brings one, so a turn without images does not build the call's list.
import type { LlmBeforeContext } from '@aalis/api-agent';
import { AalisError, type I18n, type TextRef, textRef, translatorOf } from '@aalis/core';
import type { Attachment, Message } from '@aalis/schema-message';
import type { ImageDescriber } from './image-describer.js';
import { mediaErrors } from './media-texts.js';

export interface ImageProblem {
  sessionId: string;
  /** Told once per session (no model can see) or once per image (it could not be described). */
  onceKey: string;
  notice: TextRef;
}

export class ImagesForModel {
  private readonly imageFree = new Set<string>();

  constructor(
    private readonly describer: ImageDescriber,
    private readonly i18n: I18n,
    private readonly onProblem: (problem: ImageProblem) => void,
  ) {}

  /** An input or tool result with images arrived in this session: look again at its next call. */
  imagesArrived(sessionId: string): void {
    this.imageFree.delete(sessionId);
  }

  async apply(context: LlmBeforeContext): Promise<void> {
    if (context.acceptsImages || this.imageFree.has(context.sessionId)) return;
    const messages = context.messages;
    let found = false;
    const replaced = await Promise.all(
      messages.map(async (message) => {
        if (!message.attachments?.some(needsDescription)) return message;
        found = true;
        const attachments = await Promise.all(
          message.attachments.map((attachment) =>
            needsDescription(attachment) ? this.described(attachment, context.sessionId) : attachment,
          ),
        );
        return { ...message, attachments } satisfies Message;
      }),
    );
    if (!found) {
      this.imageFree.add(context.sessionId);
      return;
    }
    context.messages = replaced;
  }

  private async described(attachment: Attachment, sessionId: string): Promise<Attachment> {
    const id = this.describer.imageId(attachment);
    const name = attachment.name ?? id;
    const t = translatorOf(this.i18n);
    try {
      const description = await this.describer.describe(attachment, { sessionId });
      return {
        ...attachment,
        name,
        description: t('media.image.described', { id, model: description.model, description: description.text }),
      };
    } catch (error) {
      if (mediaErrors.AALIS_MEDIA_NO_VISION_MODEL.is(error)) {
        this.onProblem({ sessionId, onceKey: 'no-vision', notice: textRef('media.notice.noVision') });
        return { ...attachment, name, description: t('media.image.noVision', { id }) };
      }
      const reason = AalisError.isInstance(error) ? error.localized(this.i18n.locale) : String(error);
      this.onProblem({
        sessionId,
        onceKey: `failed:${id}`,
        notice: textRef('media.notice.failed', { name, reason }),
      });
      return { ...attachment, name, description: t('media.image.failed', { id, reason }) };
    }
  }
}

function needsDescription(attachment: Attachment): boolean {
  return attachment.type === 'image' && attachment.description === undefined;
}
