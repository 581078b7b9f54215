// Uploaded files in the data directory, <dataDir>/uploads/<id>/: the original bytes, the text cut into parts and a
// small record (session, name, kind, when it expires). Written to a temporary directory and renamed, so a file is
// there whole or not at all; removed when its retention time is over.
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DocumentUnit } from './extracted-document.js';
import type { FileKind } from './sniff-file.js';

export interface UploadRecord {
  id: string;
  sessionId: string;
  name: string;
  kind: FileKind;
  unit: DocumentUnit;
  totalUnits: number;
  parts: number;
  storedAt: number;
  expiresAt: number;
}

const ID = /^f[0-9a-f]{16}$/;
const STALE_TEMPORARY_MS = 60 * 60 * 1000;

export class UploadStore {
  constructor(private readonly directory: string) {}

  /** The id of a file: the same bytes sent in the same session are one file. */
  static idOf(sessionId: string, bytes: Uint8Array): string {
    return `f${createHash('sha256').update(sessionId).update('\0').update(bytes).digest('hex').slice(0, 16)}`;
  }

  async save(record: UploadRecord, original: Uint8Array, parts: readonly string[]): Promise<void> {
    await mkdir(this.directory, { recursive: true });
    const temporary = join(this.directory, `.tmp-${randomUUID()}`);
    await mkdir(temporary);
    try {
      await writeFile(join(temporary, 'original'), original);
      await writeFile(join(temporary, 'parts.json'), JSON.stringify(parts));
      await writeFile(join(temporary, 'record.json'), JSON.stringify(record));
      const target = join(this.directory, record.id);
      await rm(target, { recursive: true, force: true });
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { recursive: true, force: true });
      throw error;
    }
  }

  async record(id: string): Promise<UploadRecord | undefined> {
    if (!ID.test(id)) return undefined;
    try {
      const record = JSON.parse(await readFile(join(this.directory, id, 'record.json'), 'utf8')) as UploadRecord;
      return record.expiresAt > Date.now() ? record : undefined;
    } catch {
      return undefined;
    }
  }

  async part(id: string, index: number): Promise<string | undefined> {
    if (!ID.test(id)) return undefined;
    try {
      const parts = JSON.parse(await readFile(join(this.directory, id, 'parts.json'), 'utf8')) as string[];
      return parts[index];
    } catch {
      return undefined;
    }
  }

  /** Removes files past their retention time (and temporary directories a crash left); returns how many went. */
  async sweep(now = Date.now()): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.directory);
    } catch {
      return 0;
    }
    let removed = 0;
    for (const name of names) {
      const path = join(this.directory, name);
      if (name.startsWith('.tmp-')) {
        // Only one a crash left: a save in progress is seconds old.
        const since = await stat(path).then(
          (entry) => now - entry.mtimeMs,
          () => 0,
        );
        if (since > STALE_TEMPORARY_MS) await rm(path, { recursive: true, force: true });
        continue;
      }
      if (!ID.test(name)) continue;
      const record = await readFile(join(path, 'record.json'), 'utf8')
        .then((text) => JSON.parse(text) as UploadRecord)
        .catch(() => undefined);
      if (!record || record.expiresAt <= now) {
        await rm(path, { recursive: true, force: true });
        removed++;
      }
    }
    return removed;
  }

  /** Removes every file of a session (the session was deleted). */
  async deleteSession(sessionId: string): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.directory);
    } catch {
      return;
    }
    for (const name of names) {
      if (!ID.test(name)) continue;
      const record = await this.record(name);
      if (record?.sessionId === sessionId) await rm(join(this.directory, name), { recursive: true, force: true });
    }
  }
}
