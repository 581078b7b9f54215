// @aalis/api-llm: Contract of the llm service: models, chat streaming events, usage accounting, typed errors.
export {};
