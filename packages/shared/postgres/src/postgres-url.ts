// What a `database` setting says before anything connects: whether it names a PostgreSQL server, and how it is shown
// in logs. Kept apart from the engine so a host can decide without loading the pg driver.

/** Whether a `database` setting names a PostgreSQL server (postgres:// or postgresql://). */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/** The URL with any password replaced by "***", for logs and errors. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://…';
  }
}
