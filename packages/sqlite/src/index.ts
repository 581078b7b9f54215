// @aalis/sqlite: One SQLite database per data directory: WAL, BEGIN IMMEDIATE writes, versioned migrations.
export {};
