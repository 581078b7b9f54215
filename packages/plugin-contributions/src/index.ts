// @aalis/plugin-contributions: The contributions service.
export {};
