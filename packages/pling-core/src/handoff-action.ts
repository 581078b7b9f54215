// The built-in `handoff` action: lets the model ask for a person when it cannot or should not go on.
import { type Action, defineAction } from './action.js';

export const HANDOFF_ACTION_ID = 'handoff';

export const handoffAction: Action = defineAction({
  id: HANDOFF_ACTION_ID,
  description:
    'Ask a person to take over when you cannot or must not finish the task yourself. Afterwards tell the user and stop.',
  parameters: {
    type: 'object',
    properties: {
      reason: { type: 'string', description: 'What the person should take over, and why.' },
      context: { type: 'object', description: 'Facts that help the person (optional).' },
    },
    required: ['reason'],
  },
  confirm: 'never',
  handler: (args, context) => {
    const request = context.requestHandoff({ reason: String(args.reason ?? ''), context: args.context });
    return { handoffId: request.id, status: 'requested' };
  },
});
