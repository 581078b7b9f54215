// Descriptors and types of the built-in services every plugin can `use` without anyone providing them.
import { type AnyDescriptor, type Disposer, defineService, type ServiceDescriptor } from './descriptor.js';
import type { Events } from './events.js';
import type { Locale, TextRef } from './i18n.js';
import type { Logger } from './logger.js';
import type { EffectivePreference, PreferenceSnapshot, ProviderInfo } from './registry.js';

/** Marker type of the `config` descriptor: its handle's `use` is the plugin's own validated config section. */
export interface PluginConfigMarker {
  readonly __pluginConfig: true;
}

export interface Lifecycle {
  /** Runs when the plugin deactivates (after registrations are undone, in reverse order of registration). */
  onDispose(fn: () => void | Promise<void>): Disposer;
  /** Runs at app shutdown before disposal, with a time limit; abort in-flight work here. */
  onDrain(fn: () => void | Promise<void>): Disposer;
  /** Aborted when the plugin deactivates. */
  readonly signal: AbortSignal;
}

export interface Provide {
  /** Registers an implementation of a service, owned by the calling plugin. Higher priority wins selection. */
  service<T>(descriptor: ServiceDescriptor<T>, implementation: T, options?: { priority?: number }): Disposer;
}

export interface Services {
  descriptors(): AnyDescriptor[];
  providers<T>(descriptor: ServiceDescriptor<T>): ReadonlyArray<ProviderInfo<T>>;
  /** The provider selected for the calling plugin (or for `consumer`, a plugin instance id). */
  selected<T>(descriptor: ServiceDescriptor<T>, consumer?: string): ProviderInfo<T> | undefined;
  preference(service: string, consumer?: string): EffectivePreference | undefined;
  setGlobalPreference(service: string, value: string | undefined): void;
  setPluginPreference(plugin: string, service: string, value: string | undefined): void;
  preferences(): PreferenceSnapshot;
  /** The app's locale (what the i18n built-in renders in). */
  readonly locale: Locale;
}

export interface I18n {
  readonly locale: Locale;
  t(text: string | TextRef): string;
}

export const logger: ServiceDescriptor<Logger> = defineService<Logger>('logger');
export const config: ServiceDescriptor<PluginConfigMarker> = defineService<PluginConfigMarker>('config');
export const events: ServiceDescriptor<Events> = defineService<Events>('events');
export const lifecycle: ServiceDescriptor<Lifecycle> = defineService<Lifecycle>('lifecycle');
export const provide: ServiceDescriptor<Provide> = defineService<Provide>('provide');
export const services: ServiceDescriptor<Services> = defineService<Services>('services');
export const i18n: ServiceDescriptor<I18n> = defineService<I18n>('i18n');

export const BUILTIN_DESCRIPTORS: readonly AnyDescriptor[] = [
  logger,
  config,
  events,
  lifecycle,
  provide,
  services,
  i18n,
];

/**
 * The host's own descriptor of a built-in service, found by name: a plugin installed with a copy of @aalis/core of
 * its own (a deployment's node_modules beside a bundled host, two installed copies) holds equal descriptors that are
 * other objects. Built-in names are the host's; no plugin provides a service under one of them.
 */
export function builtinDescriptor(descriptor: AnyDescriptor): AnyDescriptor | undefined {
  return BUILTIN_DESCRIPTORS.find((builtin) => builtin === descriptor || builtin.name === descriptor.name);
}
