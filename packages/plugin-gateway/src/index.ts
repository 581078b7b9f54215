// @aalis/plugin-gateway: The gateway service.
export {};
