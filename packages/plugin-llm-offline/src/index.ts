// @aalis/plugin-llm-offline: A deterministic offline model (labelled as such) for fresh installs, demos and tests.
export {};
