// What the plugins-from-the-registry section says about an add or a remove: the running step (npm's phase, how many
// packages it unpacked) and its share of the way, and once finished the outcome — running now, after a restart, or
// why it failed (the deployment unchanged).
import type { PluginInstallView } from '@aalis/session-client';
import { preferences } from '../page-preferences.js';
import type { TextKey } from '../page-translator.js';
import { ti } from '../plugin-install-texts.js';

const ORDER: readonly PluginInstallView['phase'][] = ['resolving', 'fetching', 'building', 'checking', 'loading'];

/** What goes between two sentences: a space in English, nothing after Chinese full-width punctuation. */
export function sentenceGap(): string {
  return preferences.locale === 'zh-CN' ? '' : ' ';
}

/** The sentence of the step an operation is at. */
export function phaseSentence(operation: PluginInstallView): string {
  return ti(`webui-install.phase.${operation.phase}` as TextKey<typeof ti>, { count: operation.packages });
}

/** How far along (0–1) an operation is, for a progress bar; undefined while rolling back (no way to tell). */
export function progressShare(operation: PluginInstallView): number | undefined {
  if (operation.phase === 'finished') return 1;
  const index = ORDER.indexOf(operation.phase);
  return index < 0 ? undefined : (index + 1) / (ORDER.length + 1);
}

/** What was asked, as the heading of the operation. */
export function operationTitle(operation: PluginInstallView): string {
  return ti(operation.action === 'add' ? 'webui-install.adding' : 'webui-install.removing', {
    target: operation.name ?? operation.target,
  });
}

export interface OutcomeLine {
  tone: 'ok' | 'error';
  text: string;
  /** The coded error under it, when there is one. */
  error?: { code: string; message: string };
}

/** The outcome of a finished operation; undefined while it runs. */
export function outcomeLine(operation: PluginInstallView): OutcomeLine | undefined {
  if (operation.state === 'running') return undefined;
  const name = operation.name ?? operation.target;
  if (operation.state === 'failed') {
    const failed = ti(operation.action === 'add' ? 'webui-install.failedAdd' : 'webui-install.failedRemove', {
      target: operation.target,
    });
    // The coded error says what happened to the deployment; without one the page says it.
    return {
      tone: 'error',
      text:
        operation.unchanged && !operation.error ? `${failed}${sentenceGap()}${ti('webui-install.unchanged')}` : failed,
      ...(operation.error ? { error: operation.error } : {}),
    };
  }
  const key =
    operation.action === 'add'
      ? operation.live
        ? 'webui-install.added'
        : 'webui-install.addedRestart'
      : operation.live
        ? 'webui-install.removed'
        : 'webui-install.removedRestart';
  return {
    tone: 'ok',
    text: ti(key, { name, version: operation.version ?? '' }).replace(/\s+([:：;；,，])/, '$1'),
    ...(operation.error ? { error: operation.error } : {}),
  };
}
