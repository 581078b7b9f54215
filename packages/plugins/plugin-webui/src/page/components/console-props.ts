// What every view of the console is given: the page's session client, and how the page words an error.
import type { SessionClient } from '@aalis/session-client';
import type { PropType } from 'vue';

export const consoleProps = {
  client: { type: Object as PropType<SessionClient>, required: true },
  describeError: { type: Function as PropType<(error: unknown) => string>, required: true },
} as const;
