// The App: registers plugin instances, activates each when its required services are present, deactivates it
// when one goes, and drains then disposes everything at stop().

import { builtinHandle, eventsFacade, type HostParts, servicesFacade } from './builtin-handles.js';
import { builtinDescriptor, type Services } from './builtins.js';
import { coreErrors } from './core-errors.js';
import { type Dependency, descriptorOf, type RegistrationOwner } from './descriptor.js';
import { AalisError } from './errors.js';
import { EventBus, type EventMap, type Events } from './events.js';
import { DEFAULT_LOCALE, type Locale } from './i18n.js';
import { consoleSink, type Logger, LogHub, type LogSink } from './logger.js';
import type { AnyPluginDefinition, PluginDefinition } from './plugin.js';
import { PluginScope } from './plugin-scope.js';
import { type PreferenceSnapshot, ServiceRegistry } from './registry.js';
import { ServiceBinding, type ServiceHandle, type SwitchReport } from './service-handle.js';

export type PluginState = 'pending' | 'activating' | 'active' | 'deactivating' | 'error' | 'stopped';

export interface PluginStateInfo {
  id: string;
  name: string;
  state: PluginState;
  /** Required services that are missing (state `pending`). */
  missing: string[];
  /** Why the plugin is in `error`. */
  error?: AalisError;
}

declare module './events.js' {
  interface EventMap {
    /** A plugin instance changed state. */
    'plugin:state': PluginStateInfo;
    /** The provider selected for a consumer changed. */
    'service:switch': SwitchReport;
    /** A service preference changed (for persistence). */
    'preferences:changed': PreferenceSnapshot;
  }
}

export interface AppOptions {
  logSinks?: LogSink[];
  locale?: Locale;
  preferences?: Partial<PreferenceSnapshot>;
  /** How long stop() waits for onDrain handlers, per plugin (default 10 s). */
  drainTimeoutMs?: number;
}

interface Instance {
  id: string;
  definition: PluginDefinition;
  rawConfig: unknown;
  config: unknown;
  state: PluginState;
  missing: string[];
  error?: AalisError;
  scope?: PluginScope;
  activationOrder: number;
}

export class App {
  readonly logs: LogHub;
  readonly log: Logger;
  readonly locale: Locale;
  readonly registry: ServiceRegistry;
  private readonly bus: EventBus;
  private readonly host: HostParts;
  private readonly instances = new Map<string, Instance>();
  private readonly drainTimeoutMs: number;
  private started = false;
  private stopping = false;
  private reconcileQueued = false;
  private reconcileRunning: Promise<void> | undefined;
  private reconciling = false;
  private activationCounter = 0;
  /** App-level events facade (not owned by any plugin). */
  readonly events: Events;
  /** App-level services facade. */
  readonly services: Services;

  constructor(options: AppOptions = {}) {
    this.logs = new LogHub(options.logSinks ?? [consoleSink('info')]);
    this.log = this.logs.logger('app');
    this.locale = options.locale ?? DEFAULT_LOCALE;
    this.drainTimeoutMs = options.drainTimeoutMs ?? 10_000;
    this.registry = new ServiceRegistry(options.preferences);
    this.bus = new EventBus((name, error) =>
      this.log.error(`listener of "${name}" failed`, { error: describe(error) }),
    );
    this.host = { logs: this.logs, bus: this.bus, registry: this.registry, locale: this.locale };
    this.events = eventsFacade(this.host, undefined);
    this.services = servicesFacade(this.host, undefined);
    this.registry.onChange(() => {
      this.refreshBindings();
      void this.scheduleReconcile();
    });
  }

  /** Registers a plugin instance. Its config section is validated now; activation follows its services. */
  plugin(definition: AnyPluginDefinition, rawConfig?: unknown, options: { id?: string } = {}): string {
    const id = options.id ?? definition.name;
    if (this.instances.has(id)) throw coreErrors.AALIS_PLUGIN_DUPLICATE({ id });
    const instance: Instance = {
      id,
      definition: definition as PluginDefinition,
      rawConfig,
      config: undefined,
      state: 'pending',
      missing: [],
      activationOrder: -1,
    };
    this.instances.set(id, instance);
    this.validateConfig(instance);
    this.publishState(instance);
    void this.scheduleReconcile();
    return id;
  }

  /** Replaces a plugin's config section: deactivates it, validates the new section and lets it activate again. */
  async configure(id: string, rawConfig: unknown): Promise<PluginStateInfo> {
    const instance = this.instance(id);
    await this.settled();
    if (instance.state === 'active') await this.deactivate(instance, 'pending');
    instance.rawConfig = rawConfig;
    instance.error = undefined;
    instance.state = 'pending';
    this.validateConfig(instance);
    this.publishState(instance);
    await this.scheduleReconcile();
    return this.stateOf(id);
  }

  /** Removes a plugin instance, deactivating it first. */
  async remove(id: string): Promise<void> {
    const instance = this.instance(id);
    await this.settled();
    if (instance.state === 'active') await this.deactivate(instance, 'stopped');
    this.instances.delete(id);
    await this.scheduleReconcile();
  }

  async start(): Promise<void> {
    this.started = true;
    await this.scheduleReconcile();
  }

  /** Waits until no activation or deactivation is in progress. */
  async settled(): Promise<void> {
    while (this.reconciling) await this.reconcileRunning;
  }

  /** Drains (onDrain handlers, each plugin limited to drainTimeoutMs), then disposes in reverse activation order. */
  async stop(): Promise<void> {
    await this.settled();
    this.stopping = true;
    const active = [...this.instances.values()].filter((instance) => instance.state === 'active');
    await Promise.all(active.map((instance) => this.drain(instance)));
    const order = [...active].sort((a, b) => b.activationOrder - a.activationOrder);
    for (const instance of order) await this.deactivate(instance, 'stopped');
    this.started = false;
    this.stopping = false;
  }

  states(): PluginStateInfo[] {
    return [...this.instances.values()].map((instance) => this.info(instance));
  }

  stateOf(id: string): PluginStateInfo {
    return this.info(this.instance(id));
  }

  emit<K extends keyof EventMap & string>(name: K, payload: EventMap[K]): void {
    this.bus.emit(name, payload);
  }

  // --- internals ---------------------------------------------------------------------------------------------

  private instance(id: string): Instance {
    const instance = this.instances.get(id);
    if (!instance)
      throw coreErrors.AALIS_PLUGIN_UNKNOWN({ id, known: [...this.instances.keys()].join(', ') || '(none)' });
    return instance;
  }

  private validateConfig(instance: Instance): void {
    const schema = instance.definition.config;
    if (!schema) {
      instance.config = instance.rawConfig ?? {};
      return;
    }
    const { value, issues } = schema.validate(instance.rawConfig);
    if (issues.length > 0) {
      const first = issues[0]!;
      instance.state = 'error';
      instance.error = coreErrors.AALIS_CONFIG_INVALID(
        { plugin: instance.id, field: first.path || '(section)', expected: first.expected, received: first.received },
        { details: { issues } },
      );
      this.log.error(instance.error.message, { plugin: instance.id, issues });
      return;
    }
    instance.config = value;
  }

  private info(instance: Instance): PluginStateInfo {
    const info: PluginStateInfo = {
      id: instance.id,
      name: instance.definition.name,
      state: instance.state,
      missing: [...instance.missing],
    };
    if (instance.error) info.error = instance.error;
    return info;
  }

  private publishState(instance: Instance): void {
    this.bus.emit('plugin:state', this.info(instance));
  }

  private missingFor(instance: Instance): string[] {
    const uses = (instance.definition.uses ?? {}) as Record<string, Dependency>;
    const missing: string[] = [];
    for (const dependency of Object.values(uses)) {
      if (dependency.kind === 'optional') continue;
      if (builtinDescriptor(dependency)) continue;
      if (!this.registry.select(dependency.name, instance.id)) missing.push(dependency.name);
    }
    return missing;
  }

  private scheduleReconcile(): Promise<void> {
    if (!this.started || this.stopping) return Promise.resolve();
    this.reconcileQueued = true;
    if (!this.reconciling) {
      this.reconciling = true;
      this.reconcileRunning = this.reconcile();
    }
    return this.reconcileRunning ?? Promise.resolve();
  }

  private async reconcile(): Promise<void> {
    try {
      while (this.reconcileQueued && !this.stopping) {
        this.reconcileQueued = false;
        for (const instance of [...this.instances.values()]) {
          if (this.stopping) return;
          const missing = this.missingFor(instance);
          if (instance.state === 'active' && missing.length > 0) {
            instance.missing = missing;
            await this.deactivate(instance, 'pending');
          } else if (instance.state === 'pending' && missing.length === 0) {
            instance.missing = [];
            await this.activate(instance);
          } else if (instance.state === 'pending' && missing.join() !== instance.missing.join()) {
            instance.missing = missing;
            this.publishState(instance);
          }
        }
      }
    } finally {
      // Cleared in the same synchronous step as the last queue check, so no request is lost in between.
      this.reconciling = false;
    }
  }

  private refreshBindings(): void {
    for (const instance of this.instances.values()) {
      for (const binding of instance.scope?.bindings ?? []) binding.refresh();
    }
  }

  private async activate(instance: Instance): Promise<void> {
    instance.state = 'activating';
    instance.error = undefined;
    const scope = new PluginScope();
    instance.scope = scope;
    this.publishState(instance);
    const owner: RegistrationOwner = { instanceId: instance.id, pluginName: instance.definition.name };
    try {
      const handles = this.buildHandles(instance, scope, owner);
      await instance.definition.apply(handles as never);
      for (const descriptor of instance.definition.provides ?? []) {
        const mine = this.registry.list(descriptor.name).some((entry) => entry.instanceId === instance.id);
        if (!mine) throw coreErrors.AALIS_PROVIDES_MISSING({ plugin: instance.id, service: descriptor.name });
      }
      if (scope.disposed) return; // deactivated while applying
      instance.state = 'active';
      instance.activationOrder = this.activationCounter++;
      this.publishState(instance);
      this.log.debug('plugin active', { plugin: instance.id });
    } catch (cause) {
      await scope.dispose((error) =>
        this.log.error('disposer failed', { plugin: instance.id, error: describe(error) }),
      );
      instance.scope = undefined;
      instance.state = 'error';
      instance.error = AalisError.isInstance(cause)
        ? cause
        : coreErrors.AALIS_PLUGIN_APPLY_FAILED({ plugin: instance.id, reason: describe(cause) }, { cause });
      this.log.error(instance.error.message, { plugin: instance.id });
      this.publishState(instance);
    }
  }

  private async deactivate(instance: Instance, next: PluginState): Promise<void> {
    const scope = instance.scope;
    instance.state = 'deactivating';
    this.publishState(instance);
    instance.scope = undefined;
    if (scope) {
      await scope.dispose((error) =>
        this.log.error('disposer failed', { plugin: instance.id, error: describe(error) }),
      );
    }
    instance.state = next;
    this.publishState(instance);
  }

  private async drain(instance: Instance): Promise<void> {
    const scope = instance.scope;
    if (!scope || scope.drainers.size === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.drainTimeoutMs);
    });
    const work = Promise.all(
      [...scope.drainers].map(async (drainer) => {
        try {
          await drainer();
        } catch (error) {
          this.log.error('drain handler failed', { plugin: instance.id, error: describe(error) });
        }
      }),
    ).then(() => 'done' as const);
    const outcome = await Promise.race([work, timeout]);
    clearTimeout(timer);
    if (outcome === 'timeout') {
      this.log.warn(coreErrors.AALIS_DRAIN_TIMEOUT({ plugin: instance.id, ms: this.drainTimeoutMs }).message);
    }
  }

  private buildHandles(
    instance: Instance,
    scope: PluginScope,
    owner: RegistrationOwner,
  ): Record<string, ServiceHandle<unknown>> {
    const handles: Record<string, ServiceHandle<unknown>> = {};
    const uses = (instance.definition.uses ?? {}) as Record<string, Dependency>;
    for (const [key, dependency] of Object.entries(uses)) {
      const descriptor = descriptorOf(dependency);
      const builtin = builtinHandle(this.host, { descriptor, config: instance.config, scope, owner });
      if (builtin !== undefined) {
        handles[key] = { use: builtin, available: true, provider: undefined };
        continue;
      }
      const binding = new ServiceBinding<unknown>(descriptor, this.registry, owner, (report) =>
        this.bus.emit('service:switch', report),
      );
      scope.bindings.push(binding);
      handles[key] = binding;
    }
    return handles;
  }
}

export function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
