// The hostConfig service: a configuration change from the console is checked as a start would check it (the whole
// file with the change, through loadConfig), applied live to the plugins whose sections change (configured again,
// started, stopped; any plugin that fails to start puts every one back as it was), and only then stored, keeping the
// file's comments and key order. One change at a time; a file edited by anyone else since it was read is refused.

import {
  type ConfigChange,
  type ConfigPath,
  type ConfigRead,
  type ConfigWriteResult,
  type ConsolePlugin,
  type HostConfigService,
  hostConfigErrors,
  SECRET_MASK,
} from '@aalis/api-host-config';
import {
  type AalisError,
  type AnyPluginDefinition,
  type App,
  type Locale,
  type PluginStateInfo,
  textRef,
  translate,
} from '@aalis/core';
import { isPlainObject } from '@aalis/schema-message';
import { revisionOf, setInText, valueAt } from './config-document.js';
import type { ConfigProblem } from './config-problems.js';
import { formatProblem } from './config-problems.js';
import { secretPaths, secretsUnder, unmask } from './config-secrets.js';
import type { ConfigStore } from './config-store.js';
import { type LoadedConfig, loadConfig, type PlannedPlugin } from './load-config.js';
import { describedInChinese } from './plugin-descriptions.js';
import type { PluginSlot } from './plugin-set.js';

/** Plugins the runtime builds at start (or that everything else stands on): changed only by a restart. */
const RESTART_ONLY: ReadonlySet<string> = new Set(['host', 'cli', 'session-server', 'storage']);

export interface LiveConfigurationOptions {
  app: App;
  store: ConfigStore;
  env: Record<string, string | undefined>;
  slots: readonly PluginSlot[];
  /** The configuration the App was started with. */
  loaded: LoadedConfig;
  /** The aliases registered with the App at start, with their instance ids and definitions. */
  registered: ReadonlyMap<string, { id: string; definition: AnyPluginDefinition }>;
  systemTimeZone: () => string;
  /** The secrets redacted from logs: new ones written through the console are added. */
  secrets: string[];
}

interface Action {
  alias: string;
  id: string;
  kind: 'configure' | 'start' | 'stop';
  before?: PlannedPlugin;
  after?: PlannedPlugin;
  definition?: AnyPluginDefinition;
}

export class LiveConfiguration implements HostConfigService {
  private loaded: LoadedConfig;
  private readonly registered: Map<string, string>;
  /** Definitions of plugins stopped from the console, to start them again without importing anew. */
  private readonly definitions = new Map<string, AnyPluginDefinition>();
  private queue: Promise<unknown> = Promise.resolve();
  /** The plugins the host knows: the runtime's own, then those installed into the deployment (they change live). */
  private slots: readonly PluginSlot[];

  constructor(private readonly options: LiveConfigurationOptions) {
    this.loaded = options.loaded;
    this.slots = options.slots;
    this.registered = new Map([...options.registered].map(([alias, { id }]) => [alias, id]));
    for (const [alias, { definition }] of options.registered) this.definitions.set(alias, definition);
  }

  get source() {
    return this.options.store.source;
  }

  async read(path: ConfigPath): Promise<ConfigRead> {
    const text = await this.options.store.read();
    const root = valueAt(text, []);
    return {
      value: valueAt(text, path),
      secrets: secretsUnder(secretPaths(root, this.slots), path),
      revision: revisionOf(text),
      source: this.source,
    };
  }

  write(
    path: ConfigPath,
    value: unknown,
    expectedRevision: string,
    options: { locale?: Locale } = {},
  ): Promise<ConfigWriteResult> {
    const run = this.queue.then(() => this.change(path, value, expectedRevision, options.locale ?? this.locale()));
    this.queue = run.catch(() => {});
    return run;
  }

  /** Turns a plugin on or off (`plugins.<alias>: false`); its section is kept while it is off and comes back. */
  async setEnabled(
    id: string,
    enabled: boolean,
    expectedRevision: string,
    options: { locale?: Locale } = {},
  ): Promise<ConfigWriteResult> {
    const locale = options.locale ?? this.locale();
    const slot = this.slotOf(id);
    if (!enabled && !this.canDisable(slot)) {
      throw hostConfigErrors.AALIS_HOST_CONFIG_PROTECTED({
        plugin: slot.alias,
        reason: translate(textRef('runtime.console.essential'), locale),
      });
    }
    const text = await this.options.store.read();
    const key = this.keyOf(slot, text);
    const current = valueAt(text, ['plugins', key]);
    if (!enabled) {
      if (current === false) return { revision: revisionOf(text), changes: [], applied: [] };
      const kept = typeof current === 'object' && current !== null ? current : undefined;
      const result = await this.write(['plugins', key], false, expectedRevision, { locale });
      await this.options.store.keepSection(slot.alias, kept);
      return result;
    }
    if (current !== false) return { revision: revisionOf(text), changes: [], applied: [] };
    const kept = await this.options.store.keptSection(slot.alias);
    // A plugin that runs only with a section of its own (budget, flow control) gets an empty one.
    const needsSection =
      slot.enabledWhen !== undefined &&
      !slot.enabledWhen(undefined, this.options.env) &&
      slot.enabledWhen({}, this.options.env);
    const restored = kept ?? (needsSection ? {} : undefined);
    const result = await this.write(['plugins', key], restored, expectedRevision, { locale });
    await this.options.store.keepSection(slot.alias, undefined);
    return result;
  }

  /**
   * Plugins installed into or removed from the deployment while the host runs (the console's plugin page): the known
   * plugins become `slots`; one added starts (as its section says), one dropped stops. Checked like a change of the
   * file: a problem throws and changes nothing. Resolves with the states of the plugins that started.
   */
  setSlots(slots: readonly PluginSlot[]): Promise<PluginStateInfo[]> {
    const run = this.queue.then(async () => {
      const locale = this.locale();
      const { store } = this.options;
      const text = await store.read();
      const aliases = new Set(slots.map((slot) => slot.alias));
      const dropped = this.slots.filter((slot) => !aliases.has(slot.alias));
      // A removed plugin's section goes with it: a section nothing reads would stop the next start.
      let candidate = text;
      const removed: ConfigPath[] = [];
      for (const slot of dropped) {
        const path = ['plugins', this.keyOf(slot, candidate)];
        if (valueAt(candidate, path) === undefined) continue;
        candidate = setInText(candidate, path, undefined);
        removed.push(path);
      }
      const checked = loadConfig({
        file: this.loaded.file,
        env: this.options.env,
        slots,
        text: candidate,
        createIfMissing: false,
        systemTimeZone: this.options.systemTimeZone,
        wording: locale,
      });
      if (!checked.ok) throw invalid(checked.problems, locale);
      const actions = await this.plan(checked.config, locale, [...slots, ...dropped]);
      const applied = await this.apply(actions, locale);
      if (removed.length > 0) {
        try {
          await store.write(candidate, revisionOf(text), { path: removed[0]!, value: undefined });
        } catch (error) {
          await this.undo(actions);
          throw error;
        }
      }
      this.slots = slots;
      for (const slot of dropped) this.definitions.delete(slot.alias);
      this.loaded = checked.config;
      this.remember(checked.config.secrets);
      return applied;
    });
    this.queue = run.catch(() => {});
    return run;
  }

  /**
   * Another process changed the configuration (a database store): the plugins whose sections differ now are
   * configured, started or stopped here too. What cannot be applied here is logged and left as it runs.
   */
  reload(): Promise<void> {
    const run = this.queue.then(async () => {
      const log = this.options.app.log;
      const locale = this.locale();
      try {
        const text = await this.options.store.read();
        const checked = loadConfig({
          file: this.loaded.file,
          env: this.options.env,
          slots: this.slots,
          text,
          createIfMissing: false,
          systemTimeZone: this.options.systemTimeZone,
        });
        if (!checked.ok) {
          log.warn('a configuration change made by another process does not check here; it is not applied', {
            problems: checked.problems.map((problem) => formatProblem(problem, 'en')),
          });
          return;
        }
        const actions = await this.plan(checked.config, locale);
        await this.apply(actions, locale);
        this.loaded = checked.config;
        this.remember(checked.config.secrets);
        if (actions.length > 0) {
          log.info('applied a configuration change made by another process', {
            plugins: actions.map((action) => action.id),
          });
        }
      } catch (error) {
        log.warn('a configuration change made by another process could not be applied here', {
          reason: error instanceof Error ? error.message : String(error),
        });
      }
    });
    this.queue = run.catch(() => {});
    return run;
  }

  plugins(locale: Locale): ConsolePlugin[] {
    const text = this.options.store.readSync();
    return this.slots.map((slot) => this.describe(slot, text, locale));
  }

  pluginSchema(id: string, locale: Locale) {
    const slot = this.findSlot(id);
    if (!slot) return undefined;
    const text = this.options.store.readSync();
    return {
      schema: slot.schema?.toJSON(),
      path: ['plugins', this.keyOf(slot, text)] as const,
      plugin: this.describe(slot, text, locale),
    };
  }

  // --- internals ---------------------------------------------------------------------------------------------

  private locale(): Locale {
    return this.options.app.locale;
  }

  private async change(
    path: ConfigPath,
    value: unknown,
    expectedRevision: string,
    locale: Locale,
  ): Promise<ConfigWriteResult> {
    const { store } = this.options;
    const text = await store.read();
    if (revisionOf(text) !== expectedRevision) {
      throw hostConfigErrors.AALIS_HOST_CONFIG_CHANGED({ source: store.describe(locale) });
    }
    const stored = valueAt(text, path);
    const wanted = unmask(value, stored);
    const candidate = setInText(text, path, wanted);
    const checked = loadConfig({
      file: this.loaded.file,
      env: this.options.env,
      slots: this.slots,
      text: candidate,
      createIfMissing: false,
      systemTimeZone: this.options.systemTimeZone,
      wording: locale,
    });
    if (!checked.ok) throw invalid(checked.problems, locale);
    const next = checked.config;
    const actions = await this.plan(next, locale);
    const applied = await this.apply(actions, locale);
    try {
      await store.write(candidate, expectedRevision, { path, value: wanted });
    } catch (error) {
      await this.undo(actions);
      if (hostConfigErrors.AALIS_HOST_CONFIG_CHANGED.is(error)) throw error;
      throw hostConfigErrors.AALIS_HOST_CONFIG_NOT_WRITTEN(
        { reason: error instanceof Error ? error.message : String(error), target: store.describe(locale) },
        { cause: error },
      );
    }
    this.loaded = next;
    this.remember(next.secrets);
    const secrets = new Set([
      ...secretPaths(valueAt(text, []), this.slots),
      ...secretPaths(valueAt(candidate, []), this.slots),
    ]);
    return { revision: revisionOf(candidate), changes: leafChanges(path.join('.'), stored, wanted, secrets), applied };
  }

  /** What the change does to the running plugins: which to configure again, start or stop. */
  private async plan(next: LoadedConfig, locale: Locale, slots = this.slots): Promise<Action[]> {
    const before = new Map(this.loaded.plugins.map((planned) => [planned.slot.alias, planned]));
    const after = new Map(next.plugins.map((planned) => [planned.slot.alias, planned]));
    const actions: Action[] = [];
    for (const slot of slots) {
      const old = before.get(slot.alias);
      const now = after.get(slot.alias);
      if (!old && !now) continue;
      if (old && now && JSON.stringify(old.section) === JSON.stringify(now.section)) continue;
      if (RESTART_ONLY.has(slot.alias)) {
        throw hostConfigErrors.AALIS_HOST_CONFIG_PROTECTED({
          plugin: slot.alias,
          reason: translate(textRef('runtime.console.restartOnly'), locale),
        });
      }
      const id = this.registered.get(slot.alias) ?? slot.id ?? slot.name;
      if (old && now && this.registered.has(slot.alias)) {
        actions.push({ alias: slot.alias, id, kind: 'configure', before: old, after: now });
      } else if (now && !this.registered.has(slot.alias)) {
        const definition = this.definitions.get(slot.alias) ?? (await slot.load?.());
        if (!definition) continue;
        actions.push({ alias: slot.alias, id, kind: 'start', after: now, definition });
      } else if (old && this.registered.has(slot.alias)) {
        actions.push({ alias: slot.alias, id, kind: 'stop', before: old });
      }
    }
    return actions;
  }

  /** Applies the actions; when a plugin does not start, everything is put back and its error thrown. */
  private async apply(actions: readonly Action[], locale: Locale): Promise<PluginStateInfo[]> {
    const { app } = this.options;
    for (const action of actions) {
      if (action.kind === 'stop') {
        await app.remove(action.id);
        this.registered.delete(action.alias);
      } else if (action.kind === 'configure') {
        await app.configure(action.id, action.after!.section);
      } else {
        app.plugin(action.definition!, action.after!.section, { id: action.id });
        this.registered.set(action.alias, action.id);
        this.definitions.set(action.alias, action.definition!);
      }
    }
    await app.settled();
    const failed = actions
      .filter((action) => action.kind !== 'stop')
      .map((action) => app.stateOf(action.id))
      .find((state) => state.state === 'error');
    if (failed) {
      await this.undo(actions);
      const cause = failed.error as AalisError | undefined;
      throw hostConfigErrors.AALIS_HOST_CONFIG_START_FAILED(
        { plugin: failed.id, reason: cause ? cause.localized(locale) : failed.state },
        { details: { cause: cause?.code ?? 'AALIS_PLUGIN_APPLY_FAILED' }, cause },
      );
    }
    return actions.filter((action) => action.kind !== 'stop').map((action) => app.stateOf(action.id));
  }

  /** Puts the plugins back as they ran before the actions. */
  private async undo(actions: readonly Action[]): Promise<void> {
    const { app } = this.options;
    for (const action of [...actions].reverse()) {
      if (action.kind === 'start') {
        if (this.registered.get(action.alias) === action.id) {
          await app.remove(action.id);
          this.registered.delete(action.alias);
        }
      } else if (action.kind === 'configure') {
        await app.configure(action.id, action.before!.section);
      } else if (!this.registered.has(action.alias)) {
        app.plugin(this.definitions.get(action.alias)!, action.before!.section, { id: action.id });
        this.registered.set(action.alias, action.id);
      }
    }
    await app.settled();
  }

  private describe(slot: PluginSlot, text: string, locale: Locale): ConsolePlugin {
    const section = valueAt(text, ['plugins', this.keyOf(slot, text)]);
    return {
      id: this.registered.get(slot.alias) ?? slot.id ?? slot.name,
      alias: slot.alias,
      name: slot.name,
      description: (locale === 'zh-CN' ? describedInChinese(slot.alias) : undefined) ?? slot.summary,
      configurable: slot.schema !== undefined && !RESTART_ONLY.has(slot.alias),
      enabled: section !== false,
      canDisable: this.canDisable(slot),
      running: this.registered.has(slot.alias),
    };
  }

  /** New secrets join the list the log sinks redact. */
  private remember(secrets: readonly string[]): void {
    for (const secret of secrets) if (!this.options.secrets.includes(secret)) this.options.secrets.push(secret);
  }

  private canDisable(slot: PluginSlot): boolean {
    return !slot.essential && !RESTART_ONLY.has(slot.alias) && slot.alias !== 'hooks';
  }

  /** The key the file uses for a plugin's section (its alias or its package name). */
  private keyOf(slot: PluginSlot, text: string): string {
    const plugins = valueAt(text, ['plugins']);
    if (typeof plugins === 'object' && plugins !== null && !(slot.alias in plugins) && slot.name in plugins) {
      return slot.name;
    }
    return slot.alias;
  }

  private findSlot(id: string): PluginSlot | undefined {
    return this.slots.find(
      (slot) =>
        this.registered.get(slot.alias) === id ||
        (slot.id ?? slot.name) === id ||
        slot.alias === id ||
        slot.name === id,
    );
  }

  private slotOf(id: string): PluginSlot {
    const slot = this.findSlot(id);
    if (slot) return slot;
    throw hostConfigErrors.AALIS_HOST_CONFIG_UNKNOWN_PLUGIN({
      plugin: id.slice(0, 100),
      known: this.slots.map((candidate) => candidate.alias).join(', '),
    });
  }
}

/** The coded error for a change the configuration's checks refuse: every problem as an issue of details.issues. */
function invalid(problems: readonly ConfigProblem[], locale: Locale): AalisError {
  const issues = problems.map((problem) =>
    problem.kind === 'issue'
      ? { path: problem.path, expected: problem.expected, received: problem.received }
      : { path: 'path' in problem ? problem.path : '', expected: formatProblem(problem, locale), received: '' },
  );
  const first = issues[0]!;
  const problem = translate(
    textRef('runtime.console.problem', { expected: first.expected, received: first.received }),
    locale,
  );
  return hostConfigErrors.AALIS_HOST_CONFIG_INVALID({ key: first.path || '(root)', problem }, { details: { issues } });
}

/** The leaf keys whose values differ between `before` and `after` (both at `prefix`). */
export function leafChanges(
  prefix: string,
  before: unknown,
  after: unknown,
  secrets: ReadonlySet<string>,
): ConfigChange[] {
  const changes: ConfigChange[] = [];
  const visit = (path: string, old: unknown, now: unknown) => {
    if (JSON.stringify(old) === JSON.stringify(now)) return;
    const oldObject = isPlainObject(old);
    const nowObject = isPlainObject(now);
    if ((oldObject || old === undefined) && (nowObject || now === undefined) && (oldObject || nowObject)) {
      const keys = new Set([...Object.keys(oldObject ? old : {}), ...Object.keys(nowObject ? now : {})]);
      for (const key of keys) {
        visit(
          `${path}.${key}`,
          oldObject ? (old as Record<string, unknown>)[key] : undefined,
          nowObject ? (now as Record<string, unknown>)[key] : undefined,
        );
      }
      return;
    }
    const secret = [...secrets].some((entry) => entry === path || entry.startsWith(`${path}.`));
    changes.push({
      key: path,
      old: secret ? (old === undefined ? undefined : SECRET_MASK) : old,
      new: secret ? (now === undefined ? undefined : SECRET_MASK) : now,
      secret,
    });
  };
  visit(prefix, before, after);
  return changes;
}
