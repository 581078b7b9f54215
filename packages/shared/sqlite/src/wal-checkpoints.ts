// WAL checkpoints off the thread that commits. SQLite's automatic checkpoint runs inside the commit that crosses
// 1000 WAL pages: it copies them into the database file and fsyncs both files, 10–40 ms on a busy disk, and the event
// loop holds still meanwhile (every session of the process waits; docs/decisions/turn-cost.md, "The tail"). Here a
// worker thread with a connection of its own runs a PASSIVE checkpoint every CHECKPOINT_EVERY commits (a PASSIVE
// checkpoint never blocks readers or writers); the committing connection keeps an automatic checkpoint only as a
// backstop at BACKSTOP_PAGES (writes that bypass the counter, a worker that lags), and goes back to SQLite's default
// if the worker fails. One worker serves the process, started on the first checkpoint due, so a short command
// never starts one, and ended when the process's last database closes.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

/** Commits between two checkpoints asked of the worker. */
export const CHECKPOINT_EVERY = 64;
/** SQLite's own default threshold, restored when the worker fails. */
export const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;
/** The committing connection's own automatic checkpoint, a backstop the worker normally keeps the WAL under. */
export const BACKSTOP_PAGES = 4 * DEFAULT_AUTOCHECKPOINT_PAGES;

// A classic script (eval), so it runs the same from the sources, from dist/ and from the aalis command's bundle.
// One worker serves every database of the process, a connection of its own for each.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const connections = new Map();
parentPort.on('message', ({ id, path, type, last }) => {
  if (type === 'close') {
    connections.get(id)?.close();
    connections.delete(id);
    // The process closed its last database: the thread ends, so nothing can end it in the middle of a statement.
    if (last) parentPort.close();
    return;
  }
  try {
    let connection = connections.get(id);
    if (!connection) connections.set(id, (connection = new Database(path, { fileMustExist: true })));
    const [row] = connection.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ id, busy: row.busy, log: row.log, checkpointed: row.checkpointed });
  } catch (error) {
    // Another connection checkpointing at the same moment: this one is skipped, the next one catches up.
    parentPort.postMessage({ id, skipped: String(error && error.code) });
  }
});
`;

interface CheckpointReply {
  id: number;
  busy?: number;
  log?: number;
  checkpointed?: number;
  skipped?: string;
}

/** The process's checkpoint worker and the databases it serves; started on the first checkpoint due. */
let shared: { worker: Worker; users: Map<number, WalCheckpoints> } | undefined;
let nextId = 0;

function sharedWorker(): NonNullable<typeof shared> {
  if (shared) return shared;
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { driver: createRequire(import.meta.url).resolve('better-sqlite3') },
  });
  const current = { worker, users: new Map<number, WalCheckpoints>() };
  worker.on('message', (reply: CheckpointReply) => current.users.get(reply.id)?.done(reply));
  const gone = () => {
    if (shared === current) shared = undefined;
    for (const user of current.users.values()) user.fallBack();
    current.users.clear();
  };
  worker.on('error', gone);
  worker.on('exit', gone);
  // It never keeps the process alive. After the listeners: a 'message' listener refs the worker's port again.
  worker.unref();
  shared = current;
  return current;
}

export class WalCheckpoints {
  private readonly id = nextId++;
  private worker: Worker | undefined;
  private commits = 0;
  private running = false;
  private again = false;
  private failed = false;
  private closed = false;
  /** Checkpoints the worker finished (for tests and diagnostics). */
  completed = 0;

  constructor(
    private readonly connection: Database.Database,
    private readonly path: string,
  ) {
    connection.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  }

  /** Counts a commit of the connection; every CHECKPOINT_EVERY commits a checkpoint is asked of the worker. */
  committed(): void {
    if (++this.commits < CHECKPOINT_EVERY || this.failed || this.closed) return;
    this.commits = 0;
    if (this.running) {
      this.again = true;
      return;
    }
    this.ask();
  }

  /** Closes this database's connection in the worker; the worker ends with the last one (a later one starts anew). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (!this.worker) return;
    const current = shared?.worker === this.worker ? shared : undefined;
    current?.users.delete(this.id);
    const last = current !== undefined && current.users.size === 0;
    if (last) shared = undefined;
    this.worker.postMessage({ id: this.id, type: 'close', last });
    this.worker = undefined;
  }

  /** The worker thread, once this database used it (tests end it to check the fallback). */
  get thread(): Worker | undefined {
    return this.worker;
  }

  private ask(): void {
    if (!this.worker) {
      try {
        const { worker, users } = sharedWorker();
        users.set(this.id, this);
        this.worker = worker;
      } catch {
        this.fallBack();
        return;
      }
    }
    this.running = true;
    this.worker.postMessage({ id: this.id, path: this.path, type: 'checkpoint' });
  }

  /** @internal The worker's answer to this database's checkpoint. */
  done(reply: CheckpointReply): void {
    this.running = false;
    if (reply.skipped === undefined) this.completed++;
    if (this.again && !this.closed) {
      this.again = false;
      this.ask();
    }
  }

  /** @internal The worker is gone: the connection checkpoints itself again, as SQLite does by default. */
  fallBack(): void {
    if (this.failed || this.closed) return;
    this.failed = true;
    this.running = false;
    this.worker = undefined;
    if (this.connection.open) this.connection.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
  }
}
