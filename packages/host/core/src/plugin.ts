// definePlugin: a plugin declares what it provides, what it uses, its config schema, and apply().
import type { PluginConfigMarker } from './builtins.js';
import type { AnyDescriptor, Dependency, OptionalDescriptor, ServiceDescriptor } from './descriptor.js';
import type { Schema } from './schema.js';
import type { ServiceHandle } from './service-handle.js';

export type Handles<U extends Record<string, Dependency>, C> = {
  [K in keyof U]: U[K] extends ServiceDescriptor<PluginConfigMarker>
    ? ServiceHandle<C>
    : U[K] extends OptionalDescriptor<infer T>
      ? ServiceHandle<T>
      : U[K] extends ServiceDescriptor<infer T>
        ? ServiceHandle<T>
        : never;
};

export interface PluginDefinition<U extends Record<string, Dependency> = Record<string, Dependency>, C = unknown> {
  readonly name: string;
  readonly provides?: readonly AnyDescriptor[];
  readonly uses?: U;
  readonly config?: Schema<C>;
  /** Called on activation with one handle per `uses` key. May be async; a throw leaves the plugin in `error`. */
  apply(handles: Handles<U, C>): void | Promise<void>;
}

// biome-ignore lint/suspicious/noExplicitAny: the App accepts definitions of every shape.
export type AnyPluginDefinition = PluginDefinition<any, any>;

export function definePlugin<U extends Record<string, Dependency>, C = unknown>(
  definition: PluginDefinition<U, C>,
): PluginDefinition<U, C> {
  return definition;
}
