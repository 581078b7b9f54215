// The workflow plugin's configuration section: a light module, so the runtime validates and documents it without
// loading the plugin.
import { s } from '@aalis/core';

export const workflowConfigSchema = s
  .object({
    dir: s
      .string()
      .default('workflows')
      .describe('Folder of the workflow files (<name>.yaml), relative to the data directory.'),
    timeZone: s.string().default('UTC').describe('IANA time zone of schedule triggers that name none.'),
    schedulePollMs: s
      .number()
      .integer()
      .min(100)
      .default(1000)
      .describe('How often scheduled workflows are looked for, in milliseconds.'),
    webhookSecret: s
      .string()
      .default('')
      .describe(
        'The secret a webhook call carries (Authorization: Bearer <secret>) to start a workflow whose triggers say webhook: true, at POST /api/v1/workflows/<name>/webhook of the session server; empty = webhooks off. Never logged.',
      ),
    resumeIntervalMs: s
      .number()
      .integer()
      .min(100)
      .default(5000)
      .describe(
        'How often runs that no live process executes (after a restart or a crash) are looked for and resumed.',
      ),
  })
  .describe('Workflows (编排): YAML files of nodes that run on a plan.');
