// @aalis/api-persona: Contract of the persona service.
export {};
