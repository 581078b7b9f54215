// A plugin's or provider's live state as the badge says it, in the page's language (active → 运行中, …); an
// unknown state is shown as it came.
import { tc } from '../console-texts.js';
import { t } from '../page-preferences.js';
import type { TextKey } from '../page-translator.js';
import type { PageTextKey } from '../texts.js';

const STATE_TEXT: Record<string, PageTextKey | TextKey<typeof tc>> = {
  active: 'webui-page.admin.state.active',
  pending: 'webui-page.admin.state.pending',
  error: 'webui-page.admin.state.error',
  failed: 'webui-page.admin.state.error',
  disabled: 'webui-console.state.disabled',
  unconfigured: 'webui-console.state.unconfigured',
};

export function stateText(state: string): string {
  const key = STATE_TEXT[state];
  if (!key) return state;
  return key.startsWith('webui-console.') ? tc(key as TextKey<typeof tc>) : t(key as PageTextKey);
}
