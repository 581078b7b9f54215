// @aalis/api-tools: Contract of the tools service.
export {};
