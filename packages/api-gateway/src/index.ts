// @aalis/api-gateway: Contract of the gateway: inbound phases and outbound dispatch.
export {};
