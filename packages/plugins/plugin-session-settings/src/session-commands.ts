// /session, /session.set <key> <value> and /session.reset <key>: the session layer of the current session.
import { type CommandContext, type CommandDefinition, pageFooter, pageFromFlags, paginate } from '@aalis/api-commands';
import {
  type AnySessionField,
  describeValue,
  type EffectiveValue,
  expectedOf,
  formatSettingValue,
  invalidValueError,
  parseSettingText,
  type SettingsScope,
  settingsErrors,
} from '@aalis/api-session-settings';
import { textRef } from '@aalis/core';
import type { SessionSettings } from './session-settings.js';

const PAGE_SIZE = 20;

function scopeOf({ sessionId, platform, message }: CommandContext): SettingsScope {
  const scope: SettingsScope = { sessionId, platform };
  if (message.venue !== undefined) scope.venue = message.venue;
  return scope;
}

/**
 * The text after the first word (the key), so values may contain spaces and quotes as typed; undefined when
 * nothing follows the key. A value typed in one pair of matching quotes is taken without them ("" = empty).
 */
function valueText(raw: string): string | undefined {
  const text = /^\S+\s+([\s\S]*)$/u.exec(raw.trim())?.[1];
  if (text === undefined || text === '') return undefined;
  const quoted = /^(["'])([\s\S]*)\1$/u.exec(text);
  return quoted ? quoted[2]! : text;
}

async function describeEffective({
  settings,
  field,
  effective,
  scope,
  t,
}: {
  settings: SessionSettings;
  field: AnySessionField;
  effective: EffectiveValue;
  scope: SettingsScope;
  t: CommandContext['t'];
}): Promise<{ value: string; origin: string }> {
  if (effective.layer === 'unset') {
    const unset = await settings.describeUnset(scope, field.key);
    return { value: t(unset ?? textRef('settings.unset')), origin: t(textRef('settings.origin.unset')) };
  }
  const note = await settings.describeValue(scope, field.key, effective.value);
  const value = formatSettingValue(field.type, effective.value);
  return {
    value: note === undefined ? value : t(textRef('settings.valueWithNote', { value, note: t(note) })),
    origin: t(textRef(`settings.origin.${effective.layer}`)),
  };
}

export function sessionCommands(settings: SessionSettings): CommandDefinition[] {
  return [
    {
      name: 'session',
      description: textRef('settings.session.description'),
      usage: textRef('settings.session.usage'),
      async handler(context) {
        const { t } = context;
        const scope = scopeOf(context);
        const fields = settings.fields();
        if (fields.length === 0) return textRef('settings.session.empty');
        const page = paginate({ items: fields, page: pageFromFlags(context.flags), pageSize: PAGE_SIZE });
        const values = await settings.getAll(scope);
        const lines: string[] = [t(textRef('settings.session.title'))];
        for (const { field } of page.items) {
          const effective = values[field.key] ?? { value: undefined, layer: 'unset' as const };
          const shown = await describeEffective({ settings, field, effective, scope, t });
          lines.push(t(textRef('settings.session.line', { label: t(field.label), key: field.key, ...shown })));
        }
        if (page.pages > 1) lines.push(t(pageFooter(page)));
        lines.push(t(textRef('settings.session.footer')));
        return lines.join('\n');
      },
    },
    {
      name: 'session.set',
      description: textRef('settings.set.description'),
      usage: textRef('settings.set.usage'),
      lenient: true,
      async handler(context) {
        const { raw, t, caller, sessionId } = context;
        // The key is the first word and the value the rest of the line as typed (flags are not parsed out).
        const key = /^\S+/u.exec(raw.trim())?.[0];
        const text = valueText(raw);
        if (key === undefined || text === undefined) return textRef('settings.set.missing');
        const field = settings.field(key)?.field ?? settingsUnknown(settings, key);
        const parsed = parseSettingText(field.type, text);
        if (!parsed.ok) {
          throw invalidValueError(key, expectedOf(field), describeValue(text));
        }
        const write = { layer: 'session' as const, target: sessionId, key, value: parsed.value };
        await settings.set({ ...write, caller: withIdentity(caller.identity) });
        return textRef('settings.set.done', {
          label: t(field.label),
          value: formatSettingValue(field.type, parsed.value),
        });
      },
    },
    {
      name: 'session.reset',
      description: textRef('settings.reset.description'),
      usage: textRef('settings.reset.usage'),
      async handler(context) {
        const { args, t, caller, sessionId } = context;
        const key = args[0];
        if (key === undefined) return textRef('settings.reset.missing');
        const field = settings.field(key)?.field ?? settingsUnknown(settings, key);
        await settings.reset({ layer: 'session', target: sessionId, key, caller: withIdentity(caller.identity) });
        const scope = scopeOf(context);
        const shown = await describeEffective({ settings, field, effective: await settings.get(scope, key), scope, t });
        return textRef('settings.reset.done', { label: t(field.label), ...shown });
      },
    },
  ];
}

function withIdentity(identity: CommandContext['caller']['identity']) {
  return identity ? { identity, via: 'chat' as const } : { via: 'chat' as const };
}

function settingsUnknown(settings: SessionSettings, key: string): never {
  throw settingsErrors.AALIS_SETTINGS_UNKNOWN_FIELD({
    key,
    known:
      settings
        .fields()
        .map(({ field }) => field.key)
        .join(', ') || '(none)',
  });
}
