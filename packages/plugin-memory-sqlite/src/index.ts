// @aalis/plugin-memory-sqlite: SQLite-backed memory service.
export {};
