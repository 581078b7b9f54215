// describe_image: another look at an image from the session's history, with a question. A model that can see gets
// the image itself back; one that cannot gets the describing model's answer.
import { DESCRIBE_IMAGE_TOOL } from '@aalis/api-media';
import type { MemoryService } from '@aalis/api-memory';
import { closedParameters, type Tool } from '@aalis/api-tools';
import { type I18n, textRef } from '@aalis/core';
import type { Attachment } from '@aalis/schema-message';
import type { ImageDescriber } from './image-describer.js';
import { mediaErrors } from './media-texts.js';

export function describeImageTool(
  describer: ImageDescriber,
  memory: () => MemoryService | undefined,
  i18n: I18n,
): Tool<{ imageId: string; question: string }> {
  const t = (key: string) => i18n.t(textRef(key));
  return {
    name: DESCRIBE_IMAGE_TOOL,
    description: t('media.tool.describe'),
    parameters: closedParameters(
      {
        imageId: { type: 'string', minLength: 1, maxLength: 64, description: t('media.tool.describe.imageId') },
        question: { type: 'string', minLength: 1, maxLength: 1_000, description: t('media.tool.describe.question') },
      },
      ['imageId', 'question'],
    ),
    async handler({ imageId, question }, context) {
      const id = imageId.trim();
      const image = await findImage(describer, memory(), context.sessionId, id);
      if (!image) throw mediaErrors.AALIS_MEDIA_IMAGE_NOT_FOUND({ id });
      if (context.acceptsImages) return { content: `${id}: ${question}`, attachments: [image] };
      const answer = await describer.describe(image, {
        question,
        sessionId: context.sessionId,
        signal: context.signal,
      });
      return i18n.t(textRef('media.image.described', { id, model: answer.model, description: answer.text }));
    },
  };
}

/** The newest image of the session's history with this id (people send the same picture again). */
async function findImage(
  describer: ImageDescriber,
  memory: MemoryService | undefined,
  sessionId: string,
  id: string,
): Promise<Attachment | undefined> {
  if (!memory) return undefined;
  const messages = await memory.readAll(sessionId);
  for (let index = messages.length - 1; index >= 0; index--) {
    for (const attachment of messages[index]!.attachments ?? []) {
      if (attachment.type === 'image' && describer.imageId(attachment) === id) return attachment;
    }
  }
  return undefined;
}
