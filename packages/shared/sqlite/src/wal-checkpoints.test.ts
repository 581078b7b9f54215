import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from './open-database.js';
import { SqliteDatabase } from './sqlite-database.js';
import { BACKSTOP_PAGES, CHECKPOINT_EVERY, DEFAULT_AUTOCHECKPOINT_PAGES, WalCheckpoints } from './wal-checkpoints.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'aalis-wal-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Rows of `notes` in the database file alone, without its WAL: what checkpoints have copied into it so far. A copy
 * taken while the worker is writing pages can be torn (SQLITE_CORRUPT, SQLITE_NOTADB): -1, "look again".
 */
function rowsInDatabaseFile(path: string): number {
  const copy = join(dir, 'copy.db');
  rmSync(copy, { force: true });
  copyFileSync(path, copy);
  let reader: Database.Database | undefined;
  try {
    reader = new Database(copy, { readonly: true });
    const table = reader.prepare("SELECT 1 FROM sqlite_master WHERE name = 'notes'").get();
    return table ? (reader.prepare('SELECT COUNT(*) AS n FROM notes').get() as { n: number }).n : 0;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB') return -1;
    throw error;
  } finally {
    reader?.close();
  }
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !check(); waited += 20) {
    if (waited > 10_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function connectionAt(path: string): Database.Database {
  const connection = new Database(path);
  connection.pragma('journal_mode = WAL');
  connection.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  return connection;
}

describe('WAL checkpoints off the committing thread', () => {
  it('SqliteDatabase commits leave checkpoints to the worker: the rows reach the database file, far below SQLite’s own threshold', async () => {
    const lease = openDatabase(dir);
    const { database } = lease;
    expect(database.connection.pragma('wal_autocheckpoint', { simple: true })).toBe(BACKSTOP_PAGES);
    database.write((connection) => connection.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)'));
    const insert = database.connection.prepare('INSERT INTO notes (body) VALUES (?)');
    // A few pages per commit: SQLite's automatic checkpoint (1000 pages) would not have run yet.
    for (let index = 0; index < 2 * CHECKPOINT_EVERY; index++) database.write(() => insert.run(`note ${index}`));
    await until(() => rowsInDatabaseFile(database.path) > 0, 'a checkpoint by the worker');
    // Everything stays readable through the connection, exactly as written.
    expect((database.connection.prepare('SELECT COUNT(*) AS n FROM notes').get() as { n: number }).n).toBe(
      2 * CHECKPOINT_EVERY,
    );
    lease.release();
  });

  it('starts no worker before the first checkpoint is due, and one afterwards', async () => {
    const connection = connectionAt(join(dir, 'a.db'));
    const checkpoints = new WalCheckpoints(connection, join(dir, 'a.db'));
    const insert = connection.prepare('INSERT INTO notes (body) VALUES (?)');
    for (let index = 0; index < CHECKPOINT_EVERY - 1; index++) {
      insert.run('x');
      checkpoints.committed();
    }
    expect(checkpoints.thread).toBeUndefined();
    insert.run('x');
    checkpoints.committed();
    const thread = checkpoints.thread;
    expect(thread).toBeDefined();
    const ended = new Promise((resolve) => thread!.once('exit', resolve));
    await until(() => checkpoints.completed === 1, 'the first checkpoint');
    expect(rowsInDatabaseFile(join(dir, 'a.db'))).toBe(CHECKPOINT_EVERY);
    checkpoints.close();
    expect(checkpoints.thread).toBeUndefined();
    // Its last database closed, the worker thread ends by itself (not only when the process ends).
    await ended;
    connection.close();
  });

  it('one worker serves every database of the process', async () => {
    const paths = [join(dir, 'd1.db'), join(dir, 'd2.db')];
    const connections = paths.map(connectionAt);
    const all = paths.map((path, index) => new WalCheckpoints(connections[index]!, path));
    for (const checkpoints of all) for (let index = 0; index < CHECKPOINT_EVERY; index++) checkpoints.committed();
    expect(all[0]!.thread).toBeDefined();
    expect(all[1]!.thread).toBe(all[0]!.thread);
    const thread = all[0]!.thread!;
    let exited = false;
    thread.once('exit', () => {
      exited = true;
    });
    await until(() => all.every((checkpoints) => checkpoints.completed === 1), 'both checkpoints');
    all[0]!.close();
    // The other database still uses it: one more checkpoint runs in the same thread.
    for (let index = 0; index < CHECKPOINT_EVERY; index++) all[1]!.committed();
    expect(all[1]!.thread).toBe(thread);
    await until(() => all[1]!.completed === 2, 'the second database’s next checkpoint');
    expect(exited).toBe(false);
    all[1]!.close();
    await until(() => exited, 'the worker’s end after its last database');
    // A database opened afterwards starts a worker of its own.
    const later = new WalCheckpoints(connections[0]!, paths[0]!);
    for (let index = 0; index < CHECKPOINT_EVERY; index++) later.committed();
    expect(later.thread).toBeDefined();
    expect(later.thread).not.toBe(thread);
    await until(() => later.completed === 1, 'the new worker’s checkpoint');
    later.close();
    for (const connection of connections) connection.close();
  });

  it('a worker that dies hands checkpoints back to the connection (SQLite’s default threshold)', async () => {
    const connection = connectionAt(join(dir, 'b.db'));
    const checkpoints = new WalCheckpoints(connection, join(dir, 'b.db'));
    expect(connection.pragma('wal_autocheckpoint', { simple: true })).toBe(BACKSTOP_PAGES);
    for (let index = 0; index < CHECKPOINT_EVERY; index++) checkpoints.committed();
    await until(() => checkpoints.completed === 1, 'the first checkpoint');
    await checkpoints.thread!.terminate();
    await until(() => checkpoints.thread === undefined, 'the fallback');
    expect(connection.pragma('wal_autocheckpoint', { simple: true })).toBe(DEFAULT_AUTOCHECKPOINT_PAGES);
    // And asks nothing of a worker any more.
    for (let index = 0; index < CHECKPOINT_EVERY; index++) checkpoints.committed();
    expect(checkpoints.thread).toBeUndefined();
    checkpoints.close();
    connection.close();
  });

  it('checkpoints asked while one runs are coalesced into one more', async () => {
    const connection = connectionAt(join(dir, 'c.db'));
    const checkpoints = new WalCheckpoints(connection, join(dir, 'c.db'));
    for (let index = 0; index < 3 * CHECKPOINT_EVERY; index++) checkpoints.committed();
    await until(() => checkpoints.completed === 2, 'the coalesced checkpoint');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(checkpoints.completed).toBe(2);
    checkpoints.close();
    connection.close();
  });

  it('the worker never keeps a process alive: it ends once its databases are closed', () => {
    const script = join(dir, 'exits.ts');
    writeFileSync(
      script,
      `import { SqliteDatabase } from ${JSON.stringify(join(import.meta.dirname, 'sqlite-database.ts'))};
const database = new SqliteDatabase(${JSON.stringify(join(dir, 'e.db'))});
database.write((connection) => connection.exec('CREATE TABLE t (x)'));
for (let index = 0; index < 3 * ${CHECKPOINT_EVERY}; index++) database.write((connection) => connection.prepare('INSERT INTO t VALUES (?)').run(index));
setTimeout(() => { database.close(); console.log('closed'); }, 300);
`,
    );
    // A process that hangs is killed after 30 s (then status is null).
    const run = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 30_000 });
    expect(run.stdout.trim()).toBe('closed');
    expect(run.status).toBe(0);
  }, 40_000);

  it('an in-memory database gets no checkpoint worker', () => {
    const memory = new SqliteDatabase(':memory:');
    expect(memory.connection.pragma('wal_autocheckpoint', { simple: true })).toBe(DEFAULT_AUTOCHECKPOINT_PAGES);
    memory.close();
  });
});
