// Global layers owned elsewhere (api-session-settings GlobalValue, e.g. the agent's 「模型」 = its llm preference):
// our own writes go to the owner once, the owner's own changes are reported as settings:changed, and a value stored
// on the global layer before the field had an owner moves to it (nothing is lost).
import type { AnySessionField, GlobalValue } from '@aalis/api-session-settings';
import type { Disposer, Events, Logger } from '@aalis/core';
import type { SettingsStore } from './settings-store.js';

export class GlobalValues {
  private readonly writing = new Set<GlobalValue<unknown>>();

  constructor(private readonly options: { store: SettingsStore; events?: Pick<Events, 'emit'>; logger?: Logger }) {}

  /** The owner of a field's global layer, when it is not the store. */
  of(field: AnySessionField | undefined): GlobalValue<unknown> | undefined {
    return field?.globalValue as GlobalValue<unknown> | undefined;
  }

  /** Our own write: the owner's change notice for it is not reported a second time. */
  async write(bound: GlobalValue<unknown>, value: unknown): Promise<void> {
    this.writing.add(bound);
    try {
      await bound.write(value);
    } finally {
      this.writing.delete(bound);
    }
  }

  /** On registration: moves a stored global value to the owner and reports the owner's changes. */
  bind(field: AnySessionField, bound: GlobalValue<unknown>): Disposer | undefined {
    const { store, events, logger } = this.options;
    store
      .read([{ layer: 'global', target: '' }], field.key)
      .then(async ([row]) => {
        if (!row) return;
        if (bound.read() === undefined) await this.write(bound, row.value);
        await store.remove({ layer: 'global', target: '', key: field.key });
      })
      .catch((error: unknown) =>
        logger?.warn('could not move a stored global value to its owner; kept in the store', {
          key: field.key,
          error: String(error),
        }),
      );
    return bound.subscribe?.((value) => {
      if (this.writing.has(bound)) return;
      events?.emit('settings:changed', { layer: 'global', target: '', key: field.key, value });
    });
  }
}
