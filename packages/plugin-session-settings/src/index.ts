// @aalis/plugin-session-settings: SQLite-backed layered session settings and the /session commands.
export {};
