// @aalis/plugin-session-manager: SQLite-backed session manager.
export {};
