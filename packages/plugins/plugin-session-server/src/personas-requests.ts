// The console's personas (docs/session-protocol.md 「Models, platforms and personas」): listed with the files that
// could not be loaded, read one by one, created, edited and deleted through the persona service (files in
// <dataDir>/personas, each write checked against the file's revision), every change audited.
import { PERSONA_FIELD_KEY, type Persona, type PersonaService, persona, personaErrors } from '@aalis/api-persona';
import type { PersonaView } from '@aalis/session-client';
import { recordAudit } from './audit.js';
import { badParam, optionalString, requireString } from './params.js';
import { recordOf } from './providers-config.js';
import type { Handler } from './request-handler.js';
import type { ServerDeps } from './server-deps.js';
import { serverErrors } from './server-errors.js';

function personasOf(deps: ServerDeps): PersonaService {
  const service = deps.services.selected(persona)?.impl;
  if (!service) throw serverErrors.AALIS_WEBUI_UNAVAILABLE({ service: 'persona' });
  return service;
}

/** The persona used by sessions that choose none: the `persona` setting's default. */
function defaultId(deps: ServerDeps): string | undefined {
  const info = deps.sessionFields.available ? deps.sessionFields.use.field(PERSONA_FIELD_KEY) : undefined;
  const value = (info?.field as { default?: unknown } | undefined)?.default;
  return typeof value === 'string' ? value : undefined;
}

function view(deps: ServerDeps, entry: Persona): PersonaView {
  return {
    id: entry.id,
    name: entry.name,
    prompt: entry.prompt,
    ...(entry.structuredOutput ? { structuredOutput: structuredClone(entry.structuredOutput) } : {}),
    ...(entry.file ? { file: entry.file } : {}),
    isDefault: entry.id === defaultId(deps),
    revision: entry.revision ?? '',
  };
}

function found(service: PersonaService, id: string): Persona {
  const entry = service.get(id);
  if (!entry) {
    const known = service.list().map((candidate) => candidate.id);
    throw personaErrors.AALIS_PERSONA_UNKNOWN({ id, known: known.join(', ') || '-' });
  }
  return entry;
}

export const personasAdminList: Handler<'admin.personas.list'> = (deps) => {
  const service = personasOf(deps);
  return {
    personas: service.list().map((entry) => view(deps, entry)),
    problems: service.problems().map((problem) => ({ code: problem.code, message: problem.localized(deps.locale) })),
  };
};

export const personasAdminGet: Handler<'admin.personas.get'> = (deps, _account, params, { type }) => {
  const service = personasOf(deps);
  const id = requireString(type, params, 'personaId', 64);
  return { persona: view(deps, found(service, id)) };
};

export const personasAdminSave: Handler<'admin.personas.save'> = async (deps, account, params, { type }) => {
  const service = personasOf(deps);
  if (!service.save) throw serverErrors.AALIS_WEBUI_UNAVAILABLE({ service: 'persona.save' });
  const id = requireString(type, params, 'personaId', 64);
  const name = requireString(type, params, 'name', 200);
  const prompt = requireString(type, params, 'prompt', 100_000);
  const revision = optionalString(type, params, 'revision', 64);
  const schema = params.structuredOutput;
  if (schema !== undefined && schema !== null && !recordOf(schema))
    badParam(type, 'structuredOutput', 'object', schema);
  const before = service.get(id);
  const saved = await service.save(
    {
      id,
      name,
      prompt,
      ...(schema === undefined ? {} : { structuredOutput: schema as Record<string, unknown> | null }),
    },
    revision,
  );
  await recordAudit(deps, account, [
    ...(before?.name !== saved.name
      ? [{ action: type, key: `personas.${id}.name`, old: before?.name, new: saved.name }]
      : []),
    ...(before?.prompt !== saved.prompt
      ? [{ action: type, key: `personas.${id}.prompt`, old: before?.prompt, new: saved.prompt }]
      : []),
    ...(JSON.stringify(before?.structuredOutput) !== JSON.stringify(saved.structuredOutput)
      ? [
          {
            action: type,
            key: `personas.${id}.structuredOutput`,
            old: before?.structuredOutput,
            new: saved.structuredOutput,
          },
        ]
      : []),
  ]);
  return { persona: view(deps, saved) };
};

export const personasAdminDelete: Handler<'admin.personas.delete'> = async (deps, account, params, { type }) => {
  const service = personasOf(deps);
  if (!service.delete) throw serverErrors.AALIS_WEBUI_UNAVAILABLE({ service: 'persona.delete' });
  const id = requireString(type, params, 'personaId', 64);
  const revision = requireString(type, params, 'revision', 64);
  const before = found(service, id);
  await service.delete(id, revision);
  await recordAudit(deps, account, { action: type, key: `personas.${id}`, old: before.name });
  return { deleted: true };
};
