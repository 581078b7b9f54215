// Image descriptions cached by content: the key is the image's SHA-256 (with the question, when one was asked),
// so an image seen again costs no model call, across sessions and restarts.
export interface StoredDescription {
  key: string;
  description: string;
  model: string;
  createdAt: number;
}

export interface DescriptionStore {
  get(key: string): Promise<StoredDescription | undefined>;
  put(entry: StoredDescription): Promise<void>;
}

export const MEDIA_NAMESPACE = 'media';

/** The cache's table; the integer type is the engine's (INTEGER on SQLite, BIGINT on PostgreSQL). */
export function descriptionMigrations(integer: 'INTEGER' | 'BIGINT') {
  return [
    {
      version: 1,
      name: 'image descriptions',
      up: `CREATE TABLE media_descriptions (
      key TEXT PRIMARY KEY,
      description TEXT NOT NULL,
      model TEXT NOT NULL,
      created_at ${integer} NOT NULL
    );`,
    },
  ];
}
