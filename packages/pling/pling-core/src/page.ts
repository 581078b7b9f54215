// A page: its declared actions, its named state, the snapshot built from them, and its confirmation and handoff
// queues with their events. Framework adapters mount one per app; everything here is framework-free.
import { callListener, DEFAULT_LOCALE, type Locale, type Redact } from '@plingjs/agent';
import type { Action } from './action.js';
import { ActionRegistry, compare } from './action-registry.js';
import { ConfirmationQueue } from './confirmation-queue.js';
import { PageError } from './errors.js';
import { HandoffQueue } from './handoff-queue.js';
import type { PageEvent, PageEventBody, PageEventListener } from './page-events.js';
import { formatSnapshot } from './page-snapshot.js';
import { collectSensitive, compileScrubber, type SensitiveVault } from './sensitive-vault.js';
import { pageTexts } from './texts.js';

export interface CreatePageOptions {
  /** Shown at the top of the snapshot. */
  title?: string;
  /** Every page event (also available through page.on()). */
  onEvent?: PageEventListener;
  /** Timestamps of requests and events; swappable for tests. Default Date.now. */
  now?: () => number;
  /**
   * Language of the page's own errors (registration, state) and of `snapshot()` without an argument; pass the
   * agent config's `locale`. Default 'zh-CN'. toRuntimeOptions renders in the resolved config's locale anyway.
   */
  locale?: Locale;
}

export type StateGetter = () => unknown;

export interface Page {
  readonly actions: ActionRegistry;
  readonly confirmations: ConfirmationQueue;
  readonly handoffs: HandoffQueue;
  /** The locale given to createPage (default 'zh-CN'). */
  readonly locale: Locale;
  /** Declares an action; returns its remover. Throws DUPLICATE_ACTION, INVALID_ACTION_ID, INVALID_ACTION. */
  register(action: Action): () => void;
  unregister(id: string): boolean;
  /** Names a piece of state the model should see (values may be sensitive); returns its remover. */
  state(name: string, getter: StateGetter): () => void;
  /** Deterministic text of the current state and actions, redacted; headings in `locale` (default the page's). */
  snapshot(locale?: Locale): string;
  /** Labelled sensitive values the page shows now, by marker (read from the getters on each call). */
  sensitiveValues(): SensitiveVault;
  /** The text with every sensitive value the page shows now (labelled or not) replaced by its marker. */
  redactText(text: string): string;
  /**
   * redactText with the page's values read once, for many texts: the runtime builds one per request, result or
   * event (`toRuntimeOptions` passes it as the runtime's `redactor`); its `longest` lets streamed text be held back.
   */
  redactor(): Redact;
  /** Listens to page events; returns the remover. */
  on(listener: PageEventListener): () => void;
  /** Rejects every pending confirmation and resolves every open handoff (what the clear button does). */
  clearAll(): void;
}

const STATE_NAME_PATTERN = /^[^\s][^\n\r]{0,99}$/;

export function createPage(options: CreatePageOptions = {}): Page {
  const now = options.now ?? (() => Date.now());
  const locale = options.locale ?? DEFAULT_LOCALE;
  const errors = pageTexts(locale).errors;
  const listeners = new Set<PageEventListener>();
  if (options.onEvent) listeners.add(options.onEvent);
  const emit = (body: PageEventBody) => {
    const event = { ...body, at: now() } as PageEvent;
    // A listener that throws is reported once; the queue (and the tool call waiting on it) goes on.
    for (const listener of [...listeners]) callListener(listener, event, { locale });
  };
  const actions = new ActionRegistry(locale);
  const confirmations = new ConfirmationQueue({ now, emit, locale });
  const handoffs = new HandoffQueue({ now, emit, locale });
  const getters = new Map<string, StateGetter>();

  const readState = (): Array<readonly [string, unknown]> =>
    [...getters.keys()].sort(compare).map((name) => {
      try {
        return [name, getters.get(name)!()] as const;
      } catch (error) {
        return [name, error instanceof Error ? error : new Error(String(error))] as const;
      }
    });

  return {
    actions,
    confirmations,
    handoffs,
    locale,
    register: (action) => actions.register(action),
    unregister: (id) => actions.unregister(id),
    state(name, getter) {
      if (typeof name !== 'string' || !STATE_NAME_PATTERN.test(name)) {
        throw new PageError('INVALID_STATE_NAME', errors.invalidStateName(JSON.stringify(name)));
      }
      if (getters.has(name)) {
        throw new PageError('DUPLICATE_STATE', errors.duplicateState(name));
      }
      getters.set(name, getter);
      return () => {
        if (getters.get(name) === getter) getters.delete(name);
      };
    },
    snapshot: (snapshotLocale = locale) =>
      formatSnapshot({
        ...(options.title !== undefined && { title: options.title }),
        state: readState(),
        actions: actions.getSnapshot(),
        locale: snapshotLocale,
      }),
    sensitiveValues: () => collectSensitive(readState().map(([, value]) => value)),
    redactText: (text) => compileScrubber(readState().map(([, value]) => value))(text),
    redactor: () => compileScrubber(readState().map(([, value]) => value)),
    on(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    clearAll() {
      confirmations.clear();
      handoffs.clear();
    },
  };
}
