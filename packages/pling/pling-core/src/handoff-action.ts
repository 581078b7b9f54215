// The built-in `handoff` action: lets the model ask for a person when it cannot or should not go on.
import { DEFAULT_LOCALE, type Locale } from '@plingjs/agent';
import { type Action, defineAction } from './action.js';
import { pageTexts } from './texts.js';

export const HANDOFF_ACTION_ID = 'handoff';

/** The built-in action with its description (which the model reads) in `locale`. */
export function createHandoffAction(locale: Locale = DEFAULT_LOCALE): Action {
  const texts = pageTexts(locale).handoff;
  return defineAction(
    {
      id: HANDOFF_ACTION_ID,
      description: texts.description,
      parameters: {
        type: 'object',
        properties: {
          reason: { type: 'string', description: texts.reason },
          context: { type: 'object', description: texts.context },
        },
        required: ['reason'],
      },
      confirm: 'never',
      handler: (args, context) => {
        const request = context.requestHandoff({ reason: String(args.reason ?? ''), context: args.context });
        return { handoffId: request.id, status: 'requested' };
      },
    },
    locale,
  );
}

/** The built-in action in the default locale (zh-CN); toRuntimeOptions uses the configured locale. */
export const handoffAction: Action = createHandoffAction();
