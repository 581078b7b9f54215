// Composables that subscribe or register must be undone; they tie that to the active effect scope (a component's
// setup(), or an effectScope()), and refuse to run where nothing would ever undo them.
import { getCurrentScope } from 'vue';
import { PlingVueError } from './pling-vue-error.js';

export function requireScope(composable: string, alternative: string): void {
  if (getCurrentScope()) return;
  throw new PlingVueError(
    'NO_ACTIVE_SCOPE',
    `${composable}() must run inside setup() or effectScope().run(), which undo it when they end; ` +
      `outside one, use ${alternative}.`,
  );
}
