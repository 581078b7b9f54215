// The fields beside the composer of a new chat, before it has a session: the model picker only, built from the
// models list, so a model can be chosen before the first message (the session is created with it).
import type { ModelView } from '@aalis/session-client';
import type { SettingState } from './settings-model.js';

export interface NewChatTexts {
  /** The picker's accessible name (「模型」 / "Model"). */
  label: string;
  /** The empty choice, naming the default model when the service has one (「默认(Test Model)」). */
  defaultChoice(name: string | undefined): string;
}

export function newChatFields(
  models: readonly ModelView[],
  picked: string | undefined,
  defaultModel: string | undefined,
  texts: NewChatTexts,
): SettingState[] {
  if (models.length === 0) return [];
  // models.list names the model a turn would use now (service preference, else provider priority).
  const fallback = models.find((model) => model.id === defaultModel);
  return [
    {
      setting: {
        key: 'llm',
        type: 'llm-ref',
        label: texts.label,
        visibility: 'composer',
        level: 0,
        writable: true,
        value: picked,
        source: picked === undefined ? 'unset' : 'session',
        note: texts.defaultChoice(fallback?.name ?? defaultModel),
      },
      options: [],
      saving: false,
    },
  ];
}
