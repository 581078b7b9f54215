// @aalis/plugin-tools: The tools service: registry, schema validation, execution.
export {};
