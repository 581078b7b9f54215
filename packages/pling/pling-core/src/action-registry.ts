// The actions one page declares right now: register (returns the remover), unregister, and an observable list of
// what is declared, for the snapshot and for a dock.
import type { Locale } from '@plingjs/agent';
import { Observable } from '@plingjs/agent';
import { type Action, type ConfirmPolicy, defineAction } from './action.js';
import { PageError } from './errors.js';
import { pageTexts } from './texts.js';

/** What a declared action looks like from outside: no handler, the policy by kind only. */
export interface ActionInfo {
  id: string;
  description: string;
  parameters: Record<string, unknown>;
  danger: boolean;
  confirm: Exclude<ConfirmPolicy, (args: Record<string, unknown>) => boolean> | 'custom' | 'default';
}

export class ActionRegistry extends Observable<readonly ActionInfo[]> {
  private readonly actions = new Map<string, Action>();
  /** `locale`: language of the registration errors (default 'zh-CN'). */
  constructor(private readonly locale?: Locale) {
    super();
  }

  /** Throws DUPLICATE_ACTION when the id is taken; the remover only removes this very declaration. */
  register(action: Action): () => void {
    const declared = defineAction(action, this.locale);
    if (this.actions.has(declared.id)) {
      throw new PageError('DUPLICATE_ACTION', pageTexts(this.locale).errors.duplicateAction(declared.id));
    }
    this.actions.set(declared.id, declared);
    this.changed();
    return () => {
      if (this.actions.get(declared.id) === declared) this.unregister(declared.id);
    };
  }

  /** Returns whether an action was removed. */
  unregister(id: string): boolean {
    const removed = this.actions.delete(id);
    if (removed) this.changed();
    return removed;
  }

  get(id: string): Action | undefined {
    return this.actions.get(id);
  }

  list(): readonly Action[] {
    return [...this.actions.values()].sort((a, b) => compare(a.id, b.id));
  }

  protected buildSnapshot(): readonly ActionInfo[] {
    return Object.freeze(this.list().map(describeAction));
  }
}

export function describeAction(action: Action): ActionInfo {
  const confirm = typeof action.confirm === 'function' ? 'custom' : (action.confirm ?? 'default');
  return Object.freeze({
    id: action.id,
    description: action.description,
    parameters: action.parameters,
    danger: action.danger === true,
    confirm,
  });
}

/** Code-unit order: the same on every machine, unlike localeCompare. */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
