// @aalis/plugin-persona: Personas from YAML files in the data directory.
export {};
