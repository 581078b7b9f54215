// @aalis/api-memory: Contract of the memory service: per-session append-only history.
export {};
