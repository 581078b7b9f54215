// The texts of the model settings panel every dock renders (labels, hints, the errors of a choice the runtime's
// rules refuse), in zh-CN and en.
import type { Locale } from '@plingjs/agent';

export interface ModelSettingsTexts {
  heading: string;
  model: string;
  temperature: string;
  temperatureHint: string;
  maxTokens: string;
  maxTokensHint: string;
  reset: string;
  /** Marks the value that is the configured default. */
  defaultMark: string;
  modelNotAllowed: (model: string, allowed: string) => string;
  listSeparator: string;
}

export const MODEL_SETTINGS_TEXTS: Readonly<Record<Locale, ModelSettingsTexts>> = {
  'zh-CN': {
    heading: '模型设置',
    model: '模型',
    temperature: '随机度（temperature）',
    temperatureHint: '0 到 2；越低越稳定',
    maxTokens: '单次回复上限（maxTokens）',
    maxTokensHint: '不小于 1 的整数',
    reset: '恢复默认',
    defaultMark: '（默认）',
    modelNotAllowed: (model, allowed) => `模型 ${model} 不在可选列表中；请从 ${allowed} 中选择。`,
    listSeparator: '、',
  },
  en: {
    heading: 'Model settings',
    model: 'Model',
    temperature: 'Temperature',
    temperatureHint: '0 to 2; lower is steadier',
    maxTokens: 'Max output (maxTokens)',
    maxTokensHint: 'An integer, at least 1',
    reset: 'Reset to defaults',
    defaultMark: ' (default)',
    modelNotAllowed: (model, allowed) => `The model ${model} is not one of the choices; pick one of ${allowed}.`,
    listSeparator: ', ',
  },
};

export function modelSettingsTexts(locale: Locale): ModelSettingsTexts {
  return MODEL_SETTINGS_TEXTS[locale] ?? MODEL_SETTINGS_TEXTS['zh-CN'];
}
