// @aalis/api-session-settings: Contract of layered session settings and the sessionFields registry.
export {};
