// Where the console's configuration changes are kept. The file store: aalis.config.yaml itself, replaced atomically
// (a temporary file renamed over it) after checking once more that nobody changed it since it was read; sections of
// plugins turned off from the console wait in <dataDir>/console/kept-sections.json to come back when turned on.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type ConfigPath, type ConfigSource, hostConfigErrors } from '@aalis/api-host-config';
import { type Locale, textRef, translate } from '@aalis/core';
import { revisionOf } from './config-document.js';

export interface ConfigStore {
  readonly source: ConfigSource;
  /** The configuration text as stored now ('' when there is none). */
  read(): Promise<string>;
  readSync(): string;
  /**
   * Stores the change (`text` is the whole configuration with it; `change` the key and value, for a store that keeps
   * changes rather than the text); AALIS_HOST_CONFIG_CHANGED when what is stored is no longer at `expectedRevision`.
   */
  write(text: string, expectedRevision: string, change?: { path: ConfigPath; value: unknown }): Promise<void>;
  /** Where it is kept, for a person reading an error (the file's path, or "the database"). */
  describe(locale: Locale): string;
  /** Keeps the section of a plugin turned off (undefined forgets it). */
  keepSection(alias: string, section: unknown): Promise<void>;
  keptSection(alias: string): Promise<Record<string, unknown> | undefined>;
}

/** Sections kept for plugins turned off: a small JSON file; more than this many bytes is refused. */
const KEPT_LIMIT_BYTES = 1024 * 1024;

export class FileConfigStore implements ConfigStore {
  readonly source = 'file' as const;
  private readonly keptFile: string;

  constructor(
    private readonly file: string,
    dataDir: string,
  ) {
    this.keptFile = join(dataDir, 'console', 'kept-sections.json');
  }

  async read(): Promise<string> {
    return existsSync(this.file) ? readFile(this.file, 'utf8') : '';
  }

  readSync(): string {
    return existsSync(this.file) ? readFileSync(this.file, 'utf8') : '';
  }

  async write(text: string, expectedRevision: string): Promise<void> {
    // Checked again right before the rename: an editor that saved while the change was being applied wins.
    if (revisionOf(this.readSync()) !== expectedRevision) {
      throw hostConfigErrors.AALIS_HOST_CONFIG_CHANGED({ source: this.file });
    }
    writeAtomically(this.file, text);
  }

  describe(locale: Locale): string {
    return translate(textRef('runtime.console.file', { file: this.file }), locale);
  }

  async keepSection(alias: string, section: unknown): Promise<void> {
    const kept = this.readKept();
    if (section === undefined) delete kept[alias];
    else kept[alias] = section as Record<string, unknown>;
    const text = `${JSON.stringify(kept, null, 2)}\n`;
    if (Buffer.byteLength(text) > KEPT_LIMIT_BYTES)
      throw new Error(`${this.keptFile} would pass ${KEPT_LIMIT_BYTES} bytes`);
    if (Object.keys(kept).length === 0) rmSync(this.keptFile, { force: true });
    else writeAtomically(this.keptFile, text);
  }

  async keptSection(alias: string): Promise<Record<string, unknown> | undefined> {
    return this.readKept()[alias];
  }

  private readKept(): Record<string, Record<string, unknown>> {
    if (!existsSync(this.keptFile)) return {};
    try {
      const parsed = JSON.parse(readFileSync(this.keptFile, 'utf8')) as unknown;
      return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, Record<string, unknown>>) : {};
    } catch {
      return {}; // a damaged file loses only the sections kept for plugins that are off
    }
  }
}

/** Writes through a temporary file beside the target, renamed over it: a reader never sees half a file. */
export function writeAtomically(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}
