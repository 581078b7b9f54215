// Writes persona files for the console: a new persona as `<id>.yaml`, an edit into its own file through the yaml
// Document API (comments and key order kept), a delete by removing the file. Each write checks the file's revision
// (a hash of its text) first, so a file edited by hand meanwhile is not overwritten, goes through a temporary file
// and a rename (a crash leaves the old file or the new one), and is parsed back before it replaces anything.
import { createHash } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PERSONA_ID_PATTERN, PERSONA_LIMITS, type Persona, type PersonaInput, personaErrors } from '@aalis/api-persona';
import type { Locale } from '@aalis/core';
import { Document, isMap, parseDocument, Scalar } from 'yaml';
import { parsePersonaFile } from './parse-persona-file.js';
import './persona-texts.js';

/** The revision of a persona file: the first 16 hex digits of its text's SHA-256. */
export function personaRevision(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** Checks the fields before anything is written; throws the coded error naming the field. */
export function checkPersonaInput(input: PersonaInput): void {
  if (typeof input.id !== 'string' || !PERSONA_ID_PATTERN.test(input.id)) {
    throw personaErrors.AALIS_PERSONA_ID_INVALID({ id: String(input.id).slice(0, 80) });
  }
  for (const field of ['name', 'prompt'] as const) {
    const value = input[field];
    if (typeof value !== 'string' || value.trim() === '') throw personaErrors.AALIS_PERSONA_FIELD_EMPTY({ field });
    if (value.length > PERSONA_LIMITS[field]) {
      throw personaErrors.AALIS_PERSONA_FIELD_TOO_LONG({ field, max: PERSONA_LIMITS[field] });
    }
  }
  const schema = input.structuredOutput;
  if (schema !== undefined && schema !== null) {
    if (typeof schema !== 'object' || Array.isArray(schema) || schema.type !== 'object') {
      throw personaErrors.AALIS_PERSONA_SCHEMA_INVALID();
    }
    if (JSON.stringify(schema).length > PERSONA_LIMITS.structuredOutputJson) {
      throw personaErrors.AALIS_PERSONA_FIELD_TOO_LONG({
        field: 'structuredOutput',
        max: PERSONA_LIMITS.structuredOutputJson,
      });
    }
  }
}

/** The text of a persona file: the existing one with the fields replaced (comments kept), or a new one. */
export function personaFileText(input: PersonaInput, existing: string | undefined): string {
  // An existing file was loaded, so its top level is a mapping; a new one starts from an empty mapping.
  const parsed = existing === undefined ? undefined : parseDocument(existing);
  const document = parsed && isMap(parsed.contents) ? parsed : new Document({});
  document.set('id', input.id);
  document.set('name', input.name.trim());
  // A prompt of several lines stays readable in the file: a literal block.
  const prompt = new Scalar(input.prompt.trim());
  if (prompt.value.includes('\n')) prompt.type = Scalar.BLOCK_LITERAL;
  document.set('prompt', prompt);
  if (input.structuredOutput) document.set('structuredOutput', document.createNode(input.structuredOutput));
  else document.delete('structuredOutput');
  return document.toString({ lineWidth: 0 });
}

export interface PersonaWriteOptions {
  dir: string;
  locale: Locale;
  /** The persona now loaded under the id, if any. */
  current: Persona | undefined;
}

/** Writes the persona's file (checked, atomically) and returns its file name. Throws the coded errors of save. */
export async function writePersonaFile(
  input: PersonaInput,
  expectedRevision: string | undefined,
  { dir, locale, current }: PersonaWriteOptions,
): Promise<string> {
  checkPersonaInput(input);
  let file: string;
  let existing: string | undefined;
  if (expectedRevision === undefined) {
    file = `${input.id}.yaml`;
    const taken = current ?? (await readText(join(dir, file))) !== undefined;
    if (taken) throw personaErrors.AALIS_PERSONA_EXISTS({ id: input.id, file: current?.file ?? file });
  } else {
    if (!current?.file) {
      throw personaErrors.AALIS_PERSONA_CHANGED({ file: `${input.id}.yaml` });
    }
    file = current.file;
    existing = await readText(join(dir, file));
    if (existing === undefined || personaRevision(existing) !== expectedRevision) {
      throw personaErrors.AALIS_PERSONA_CHANGED({ file });
    }
  }
  const text = personaFileText(input, existing);
  const parsed = parsePersonaFile({ file, text, locale });
  if (!parsed.ok) throw parsed.error;
  await replaceFile(join(dir, file), text, file);
  return file;
}

/** Removes the persona's file when its revision is the expected one. */
export async function deletePersonaFile(
  current: Persona,
  expectedRevision: string,
  { dir }: { dir: string },
): Promise<void> {
  const file = current.file ?? `${current.id}.yaml`;
  const existing = await readText(join(dir, file));
  if (existing === undefined || personaRevision(existing) !== expectedRevision) {
    throw personaErrors.AALIS_PERSONA_CHANGED({ file });
  }
  try {
    await rm(join(dir, file));
  } catch (error) {
    throw personaErrors.AALIS_PERSONA_NOT_SAVED({ file, reason: reasonOf(error) });
  }
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

async function replaceFile(path: string, text: string, file: string): Promise<void> {
  // Not *.yaml: a load running meanwhile never reads the half-written file.
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, text, 'utf8');
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => {});
    throw personaErrors.AALIS_PERSONA_NOT_SAVED({ file, reason: reasonOf(error) });
  }
}

function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
}
