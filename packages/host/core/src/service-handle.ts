// The handle a plugin receives for each `uses` entry. `use` forwards every call to the provider selected at call
// time; registrar methods are owned by the consumer and follow the selection (see ServiceDescriptor.registrars).
import { coreErrors } from './core-errors.js';
import type { AnyDescriptor, Disposer, RegistrationOwner } from './descriptor.js';
import type { ProviderInfo, ServiceRegistry } from './registry.js';

export interface ServiceHandle<T> {
  /** The selected provider's implementation; throws AALIS_SERVICE_UNAVAILABLE on use when none is selected. */
  readonly use: T;
  /** Whether a provider is selected for this consumer now. */
  readonly available: boolean;
  /** The selected provider now, if any. */
  readonly provider: ProviderInfo<T> | undefined;
}

interface Registration {
  method: string;
  args: unknown[];
  attachedTo: ProviderInfo | undefined;
  detach: Disposer | undefined;
}

export interface SwitchReport {
  service: string;
  consumer: string;
  from: string | undefined;
  to: string | undefined;
}

/** A provider's method bound to its implementation, kept while the implementation still has that method. */
interface BoundMethod {
  impl: object;
  method: (...args: unknown[]) => unknown;
  bound: (...args: unknown[]) => unknown;
}

/** Consumer-side state behind one ServiceHandle. */
export class ServiceBinding<T> implements ServiceHandle<T> {
  readonly use: T;
  private readonly registrations = new Set<Registration>();
  private current: ProviderInfo | undefined;
  private closed = false;
  /**
   * The selection as of a registry revision: a turn makes dozens of calls through handles, and selecting (and binding)
   * again for each cost ~1.5 % of a tool turn. Any change of providers or preferences bumps the revision, so a call
   * still goes to the provider selected at call time.
   */
  private selectedAt = -1;
  private selected: ProviderInfo | undefined;
  private readonly boundMethods = new Map<string, BoundMethod>();
  private readonly registrarCalls = new Map<string, (...args: unknown[]) => Disposer>();

  constructor(
    private readonly descriptor: AnyDescriptor,
    private readonly registry: ServiceRegistry,
    private readonly owner: RegistrationOwner,
    private readonly onSwitch: (report: SwitchReport) => void,
  ) {
    this.current = registry.select(descriptor.name, owner.instanceId);
    this.use = new Proxy({} as object, {
      get: (_target, property) => this.forward(property),
      has: (_target, property) => {
        const provider = this.provider;
        return provider !== undefined && property in (provider.impl as object);
      },
    }) as T;
  }

  get provider(): ProviderInfo<T> | undefined {
    const revision = this.registry.revision;
    if (revision !== this.selectedAt) {
      this.selected = this.registry.select(this.descriptor.name, this.owner.instanceId);
      this.selectedAt = revision;
    }
    return this.selected as ProviderInfo<T> | undefined;
  }

  get available(): boolean {
    return this.provider !== undefined;
  }

  private forward(property: string | symbol): unknown {
    if (typeof property !== 'string') return undefined;
    if (property === 'then') return undefined; // never look like a thenable
    if (this.descriptor.registrars.includes(property)) {
      let call = this.registrarCalls.get(property);
      if (!call) {
        call = (...args: unknown[]) => this.register(property, args);
        this.registrarCalls.set(property, call);
      }
      return call;
    }
    const provider = this.provider;
    if (!provider) {
      throw coreErrors.AALIS_SERVICE_UNAVAILABLE({ service: this.descriptor.name, plugin: this.owner.instanceId });
    }
    const impl = provider.impl as Record<string, unknown>;
    const value = impl[property];
    if (typeof value !== 'function') return value;
    // The same implementation with the same method gives the same bound function (one bind, not one per call).
    const known = this.boundMethods.get(property);
    if (known !== undefined && known.impl === impl && known.method === value) return known.bound;
    const bound = value.bind(impl) as BoundMethod['bound'];
    this.boundMethods.set(property, { impl, method: value as BoundMethod['method'], bound });
    return bound;
  }

  private register(method: string, args: unknown[]): Disposer {
    const registration: Registration = { method, args, attachedTo: undefined, detach: undefined };
    if (this.closed) return () => {};
    this.registrations.add(registration);
    this.attach(registration, this.provider);
    let disposed = false;
    return () => {
      if (disposed) return;
      disposed = true;
      this.detach(registration);
      this.registrations.delete(registration);
    };
  }

  private attach(registration: Registration, provider: ProviderInfo | undefined): void {
    registration.attachedTo = undefined;
    registration.detach = undefined;
    if (!provider) return;
    const impl = provider.impl as Record<string, unknown>;
    const method = impl[registration.method];
    if (typeof method !== 'function') return; // this provider does not support it; attached when one that does is selected
    const result = method.apply(impl, [...registration.args, this.owner]);
    registration.attachedTo = provider;
    registration.detach = typeof result === 'function' ? (result as Disposer) : undefined;
  }

  private detach(registration: Registration): void {
    const { attachedTo, detach } = registration;
    registration.attachedTo = undefined;
    registration.detach = undefined;
    // A provider that went away took its registrations with it; only live providers are told.
    if (attachedTo && detach && this.registry.has(this.descriptor.name, attachedTo)) detach();
  }

  /** Re-evaluates the selection; moves registrations and reports a switch when it changed. */
  refresh(): void {
    if (this.closed) return;
    const next = this.registry.select(this.descriptor.name, this.owner.instanceId);
    const previous = this.current;
    const stillThere = previous !== undefined && this.registry.has(this.descriptor.name, previous);
    if (next === previous && (stillThere || previous === undefined)) return;
    this.current = next;
    // The selection and methods bound to the provider left behind would only keep it in memory.
    this.selected = undefined;
    this.selectedAt = -1;
    this.boundMethods.clear();
    for (const registration of this.registrations) {
      this.detach(registration);
      this.attach(registration, next);
    }
    if (previous?.instanceId !== next?.instanceId || !stillThere) {
      this.onSwitch({
        service: this.descriptor.name,
        consumer: this.owner.instanceId,
        from: previous?.instanceId,
        to: next?.instanceId,
      });
    }
  }

  /** Undoes every registration (the consumer is deactivating). Returns how many were undone. */
  close(): number {
    this.closed = true;
    this.selected = undefined;
    this.selectedAt = -1;
    this.boundMethods.clear();
    const count = this.registrations.size;
    for (const registration of this.registrations) this.detach(registration);
    this.registrations.clear();
    return count;
  }
}
