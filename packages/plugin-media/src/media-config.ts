// plugins.media: which model describes images, and the bounds on what it is given and what it writes.
import { type Infer, s } from '@aalis/core';

export const mediaConfigSchema = s
  .object({
    describeModel: s
      .string()
      .optional()
      .describe(
        'The model that describes images for models that cannot see (<provider>/<model>); default: the first configured model with vision.',
      ),
    maxImageBytes: s
      .number()
      .integer()
      .min(1_024)
      .default(20 * 1024 * 1024)
      .describe('Largest image described, in bytes.'),
    maxDescriptionChars: s
      .number()
      .integer()
      .min(100)
      .default(2_000)
      .describe('A description is cut to this many characters.'),
    describeTimeoutMs: s
      .number()
      .integer()
      .min(1_000)
      .default(60_000)
      .describe('How long describing one image may take.'),
  })
  .describe('Images, voice and documents for models that cannot take them.');

export type MediaConfig = Infer<typeof mediaConfigSchema>;
