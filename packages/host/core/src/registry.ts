// Which plugins provide which services, the service preferences, and provider selection:
// the consumer's own preference > the global preference > provider priority > registration order.
import type { AnyDescriptor, Disposer } from './descriptor.js';

export interface ProviderInfo<T = unknown> {
  readonly service: string;
  /** The providing plugin instance id. */
  readonly instanceId: string;
  readonly pluginName: string;
  readonly priority: number;
  readonly impl: T;
  /** Registration order, increasing. */
  readonly order: number;
}

export interface PreferenceSnapshot {
  global: Record<string, string>;
  plugins: Record<string, Record<string, string>>;
}

export interface EffectivePreference {
  value: string;
  scope: 'plugin' | 'global';
}

/** Whether a preference value names this provider: its instance id, or `<instance id>/<item>` (e.g. a model). */
export function preferenceMatches(value: string, instanceId: string): boolean {
  return value === instanceId || value.startsWith(`${instanceId}/`);
}

export class ServiceRegistry {
  private readonly providers = new Map<string, ProviderInfo[]>();
  private readonly descriptors = new Map<string, AnyDescriptor>();
  private readonly global = new Map<string, string>();
  private readonly plugins = new Map<string, Map<string, string>>();
  private readonly listeners = new Set<(service: string | undefined) => void>();
  private order = 0;
  private changes = 0;

  constructor(initial?: Partial<PreferenceSnapshot>) {
    for (const [service, value] of Object.entries(initial?.global ?? {})) this.global.set(service, value);
    for (const [plugin, entries] of Object.entries(initial?.plugins ?? {})) {
      this.plugins.set(plugin, new Map(Object.entries(entries)));
    }
  }

  /**
   * Counts every change of providers or preferences (each goes through `changed`): a selection made at one
   * revision holds until the next, so a handle need not select again on every call.
   */
  get revision(): number {
    return this.changes;
  }

  onChange(listener: (service: string | undefined) => void): Disposer {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(service: string | undefined): void {
    this.changes++;
    for (const listener of [...this.listeners]) listener(service);
  }

  add(descriptor: AnyDescriptor, entry: Omit<ProviderInfo, 'order' | 'service'>): Disposer {
    this.descriptors.set(descriptor.name, descriptor);
    const info: ProviderInfo = { ...entry, service: descriptor.name, order: this.order++ };
    const list = this.providers.get(descriptor.name) ?? [];
    list.push(info);
    this.providers.set(descriptor.name, list);
    this.changed(descriptor.name);
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      const current = this.providers.get(descriptor.name) ?? [];
      this.providers.set(
        descriptor.name,
        current.filter((candidate) => candidate !== info),
      );
      this.changed(descriptor.name);
    };
  }

  list(service: string): readonly ProviderInfo[] {
    return this.providers.get(service) ?? [];
  }

  has(service: string, provider: ProviderInfo): boolean {
    return this.list(service).includes(provider);
  }

  knownDescriptors(): AnyDescriptor[] {
    return [...this.descriptors.values()];
  }

  /** The effective preference for a service as seen by a consumer plugin instance. */
  preference(service: string, consumer?: string): EffectivePreference | undefined {
    const own = consumer === undefined ? undefined : this.plugins.get(consumer)?.get(service);
    if (own !== undefined) return { value: own, scope: 'plugin' };
    const global = this.global.get(service);
    return global === undefined ? undefined : { value: global, scope: 'global' };
  }

  select(service: string, consumer?: string): ProviderInfo | undefined {
    const list = this.list(service);
    if (list.length === 0) return undefined;
    const own = consumer === undefined ? undefined : this.plugins.get(consumer)?.get(service);
    if (own !== undefined) {
      const match = list.find((entry) => preferenceMatches(own, entry.instanceId));
      if (match) return match;
    }
    const global = this.global.get(service);
    if (global !== undefined) {
      const match = list.find((entry) => preferenceMatches(global, entry.instanceId));
      if (match) return match;
    }
    let best = list[0]!;
    for (const entry of list) {
      if (entry.priority > best.priority || (entry.priority === best.priority && entry.order < best.order)) {
        best = entry;
      }
    }
    return best;
  }

  setGlobalPreference(service: string, value: string | undefined): void {
    if (value === undefined) this.global.delete(service);
    else this.global.set(service, value);
    this.changed(service);
  }

  setPluginPreference(plugin: string, service: string, value: string | undefined): void {
    const entries = this.plugins.get(plugin) ?? new Map<string, string>();
    if (value === undefined) entries.delete(service);
    else entries.set(service, value);
    this.plugins.set(plugin, entries);
    this.changed(service);
  }

  preferences(): PreferenceSnapshot {
    return {
      global: Object.fromEntries(this.global),
      plugins: Object.fromEntries([...this.plugins].map(([plugin, entries]) => [plugin, Object.fromEntries(entries)])),
    };
  }
}
