// The image types model APIs take as image input (OpenAI-compatible servers and Anthropic's Messages API alike): an
// image attachment of another type (an SVG, an HTML page behind an image link) makes the provider refuse the whole
// request, so every place that admits images for a model checks against this one list.
export const MODEL_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

export type ModelImageType = (typeof MODEL_IMAGE_TYPES)[number];

/** Whether a MIME type is one of MODEL_IMAGE_TYPES. */
export function isModelImageType(mimeType: string): mimeType is ModelImageType {
  return (MODEL_IMAGE_TYPES as readonly string[]).includes(mimeType);
}
