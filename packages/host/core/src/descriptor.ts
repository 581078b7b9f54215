// Service descriptors: the typed names by which plugins provide and use services.

export type Disposer = () => void;

/** Who registered something through a registrar method; passed by the handle as the trailing argument. */
export interface RegistrationOwner {
  /** The plugin instance id (also the prefix of its contribution keys). */
  readonly instanceId: string;
  readonly pluginName: string;
}

export interface ServiceDescriptor<T> {
  readonly kind: 'service';
  readonly name: string;
  /**
   * Methods with registrar semantics: the call is owned by the calling plugin, re-attached to the new provider
   * when the selection changes, deferred while no provider (or one without the method) is selected, and undone
   * when the caller deactivates. Providers implement them as `(…args, owner?: RegistrationOwner) => Disposer`.
   */
  readonly registrars: readonly string[];
  /** Phantom carrying the service type. */
  readonly __type?: (value: T) => T;
}

export interface OptionalDescriptor<T> {
  readonly kind: 'optional';
  readonly descriptor: ServiceDescriptor<T>;
}

// biome-ignore lint/suspicious/noExplicitAny: descriptors of any service type are stored side by side.
export type AnyDescriptor = ServiceDescriptor<any>;
// biome-ignore lint/suspicious/noExplicitAny: same as above, for optional dependencies.
export type Dependency = ServiceDescriptor<any> | OptionalDescriptor<any>;

export type ServiceType<D> =
  D extends ServiceDescriptor<infer T> ? T : D extends OptionalDescriptor<infer T> ? T : never;

export function defineService<T>(
  name: string,
  options: { registrars?: readonly (keyof T & string)[] } = {},
): ServiceDescriptor<T> {
  return Object.freeze({ kind: 'service', name, registrars: Object.freeze([...(options.registrars ?? [])]) });
}

export function optional<T>(descriptor: ServiceDescriptor<T>): OptionalDescriptor<T> {
  return Object.freeze({ kind: 'optional', descriptor });
}

export function descriptorOf(dependency: Dependency): AnyDescriptor {
  return dependency.kind === 'optional' ? dependency.descriptor : dependency;
}
