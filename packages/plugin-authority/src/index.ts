// @aalis/plugin-authority: The authority service.
export {};
