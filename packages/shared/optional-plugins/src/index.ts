// @aalis/optional-plugins: the names of the optional first-party plugins, shared by @aalis/runtime and create-aalis.
export { isOptionalPlugin, OPTIONAL_PLUGINS, type OptionalPluginName } from './optional-plugins.js';
