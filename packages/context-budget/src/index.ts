// @aalis/context-budget: Token estimation, the 5-step trim and the history-limit window as pure functions.
export {};
