// @aalis/core: Plugin host: service descriptors, dependency injection, plugin lifecycle, config schemas, events, logging, i18n. No runtime dependencies; runs in browsers.
export {};
