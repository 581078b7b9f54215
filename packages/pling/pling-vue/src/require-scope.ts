// Composables that subscribe or register must be undone; they tie that to the active effect scope (a component's
// setup(), or an effectScope()), and refuse to run where nothing would ever undo them.

import { adapterUsageError } from '@plingjs/core';
import { getCurrentScope } from 'vue';

export function requireScope(composable: string, alternative: string): void {
  if (getCurrentScope()) return;
  throw adapterUsageError('NO_ACTIVE_SCOPE', (errors) => errors.noActiveScope(composable, alternative));
}
