// The implementations behind the built-in handles (logger, config, events, lifecycle, provide, services, i18n):
// per plugin instance, and owned by its scope, so everything registered through them goes with the plugin.
import {
  builtinDescriptor,
  config as configDescriptor,
  events as eventsDescriptor,
  type I18n,
  i18n as i18nDescriptor,
  type Lifecycle,
  lifecycle as lifecycleDescriptor,
  logger as loggerDescriptor,
  type Provide,
  provide as provideDescriptor,
  type Services,
  services as servicesDescriptor,
} from './builtins.js';
import type { AnyDescriptor, RegistrationOwner } from './descriptor.js';
import type { EventBus, Events } from './events.js';
import { type Locale, translate } from './i18n.js';
import type { LogHub } from './logger.js';
import type { PluginScope } from './plugin-scope.js';
import type { ServiceRegistry } from './registry.js';

export interface HostParts {
  logs: LogHub;
  bus: EventBus;
  registry: ServiceRegistry;
  locale: Locale;
}

/** The built-in implementation for a descriptor, or undefined when the descriptor is not a built-in. */
export function builtinHandle(
  host: HostParts,
  {
    descriptor,
    config,
    scope,
    owner,
  }: { descriptor: AnyDescriptor; config: unknown; scope: PluginScope; owner: RegistrationOwner },
): unknown {
  switch (builtinDescriptor(descriptor)) {
    case loggerDescriptor:
      return host.logs.logger(owner.instanceId);
    case configDescriptor:
      return config;
    case eventsDescriptor:
      return eventsFacade(host, scope);
    case lifecycleDescriptor:
      return {
        onDispose: (fn) => scope.own(fn),
        onDrain: (fn) => {
          scope.drainers.add(fn);
          return scope.own(() => {
            scope.drainers.delete(fn);
          });
        },
        signal: scope.controller.signal,
      } satisfies Lifecycle;
    case provideDescriptor:
      return {
        service: (target, implementation, options = {}) =>
          scope.own(
            host.registry.add(target, {
              instanceId: owner.instanceId,
              pluginName: owner.pluginName,
              priority: options.priority ?? 0,
              impl: implementation,
            }),
          ),
      } satisfies Provide;
    case servicesDescriptor:
      return servicesFacade(host, owner.instanceId);
    case i18nDescriptor:
      return { locale: host.locale, t: (text) => translate(text, host.locale) } satisfies I18n;
    default:
      return undefined;
  }
}

/** Events; subscriptions are owned by `scope` when given (a plugin), else by the caller (the App itself). */
export function eventsFacade({ bus }: Pick<HostParts, 'bus'>, scope: PluginScope | undefined): Events {
  return {
    on: (name, listener) => {
      const off = bus.on(name, listener as (payload: unknown) => void);
      return scope ? scope.own(off) : off;
    },
    emit: (name, payload) => bus.emit(name, payload),
    emitAsync: (name, payload) => bus.emitAsync(name, payload),
    listens: (name) => bus.listenerCount(name) > 0,
  };
}

/** Service look-ups and preferences, as seen by `consumer` (a plugin instance id; undefined for the App). */
export function servicesFacade({ bus, registry, locale }: HostParts, consumer: string | undefined): Services {
  const changed = () => bus.emit('preferences:changed', registry.preferences());
  return {
    descriptors: () => registry.knownDescriptors(),
    providers: (descriptor) => registry.list(descriptor.name) as never,
    selected: (descriptor, who) => registry.select(descriptor.name, who ?? consumer) as never,
    preference: (service, who) => registry.preference(service, who ?? consumer),
    setGlobalPreference: (service, value) => {
      registry.setGlobalPreference(service, value);
      changed();
    },
    setPluginPreference: (plugin, service, value) => {
      registry.setPluginPreference(plugin, service, value);
      changed();
    },
    preferences: () => registry.preferences(),
    locale,
  };
}
