// The four per-session fields of plugin-agent (plugin-agent.zh.md 「会话设置项」) and the llm-thinking options.

import { listModels, llm, type ModelInfo } from '@aalis/api-llm';
import type {
  AnySessionField,
  FieldOption,
  GlobalValue,
  LlmRef,
  OptionSourceContext,
} from '@aalis/api-session-settings';
import { type TextRef, textRef } from '@aalis/core';
import type { AgentDeps } from './agent-deps.js';
import { FIELD, modelRefText, parseModelRef, resolveSessionModel } from './turn/turn-settings.js';

export const THINKING_SOURCE = 'llm-thinking';

function integerAtLeast(min: number) {
  return (value: number): TextRef | undefined =>
    Number.isInteger(value) && value >= min ? undefined : textRef('agent.field.integerAtLeast', { min });
}

export function agentFields(deps: AgentDeps): AnySessionField[] {
  // The plugin's own config is what applies when no layer sets a field (turn-settings.ts): it is the fields'
  // default, so /session and the settings UI show the value turns use.
  const { think, maxToolIterations, historyLimit } = deps.config;
  return [
    {
      key: FIELD.llm,
      type: 'llm-ref',
      label: textRef('agent.field.llm'),
      visibility: 'composer',
      level: 1,
      validate: (value) =>
        value.provider.trim() !== '' && value.model.trim() !== '' ? undefined : textRef('agent.field.llm.invalid'),
      // 「交此刻实际在用的值」: a set model that is not available now says which one turns use instead.
      describeValue: (_context, value) => {
        const resolved = resolveSessionModel(deps, modelRefText(value));
        if (!resolved) return textRef('agent.field.llm.unavailableNone');
        return resolved.fallback ? textRef('agent.field.llm.unavailable', { model: resolved.model.name }) : undefined;
      },
      describeUnset: () => {
        const model = resolveSessionModel(deps, undefined)?.model;
        return model ? textRef('agent.field.llm.unset', { model: model.name }) : textRef('agent.field.llm.unsetNone');
      },
      // 「模型」的全局层是本插件对 llm 服务的本插件偏好: one value, read and written on either side.
      globalValue: modelPreference(deps),
    },
    {
      key: FIELD.think,
      type: 'select',
      label: textRef('agent.field.think'),
      visibility: 'common',
      level: 1,
      dynamicOptions: { source: THINKING_SOURCE, dependsOn: [FIELD.llm] },
      ...(think !== undefined ? { default: think } : {}),
      describeValue: async ({ scope }, level) => {
        const model = await currentModel(deps, scope.sessionId, scope.platform, scope.venue);
        return model ? thinkingNote({ model, level, levelName: levelNameOf(deps, level) }) : undefined;
      },
      describeUnset: async ({ scope }) => {
        const model = await currentModel(deps, scope.sessionId, scope.platform, scope.venue);
        return model?.thinking === 'not-adjustable'
          ? textRef('agent.field.think.notAdjustable')
          : textRef('agent.field.think.unset');
      },
    },
    {
      key: FIELD.maxToolIterations,
      type: 'number',
      label: textRef('agent.field.maxToolIterations'),
      visibility: 'advanced',
      level: 'owner',
      validate: integerAtLeast(1),
      ...(maxToolIterations !== undefined ? { default: maxToolIterations } : {}),
      describeUnset: () => textRef('agent.field.maxToolIterations.unset'),
    },
    {
      key: FIELD.historyLimit,
      type: 'number',
      label: textRef('agent.field.historyLimit'),
      visibility: 'advanced',
      level: 'owner',
      default: historyLimit ?? 0,
      validate: integerAtLeast(0),
      describeUnset: () => textRef('agent.field.historyLimit.unset'),
    },
  ];
}

/**
 * The global layer of 「模型」: this plugin's llm preference (pluginServicePreferences['<this instance>'].llm), as
 * an llm-ref. A preference that names only a provider is no model ref: the layer reads as unset then.
 */
function modelPreference(deps: AgentDeps): GlobalValue<LlmRef> {
  const current = () => deps.services.preferences().plugins[deps.instanceId]?.[llm.name];
  return {
    read: () => parseModelRef(current()),
    write: (value) => deps.services.setPluginPreference(deps.instanceId, llm.name, modelRefText(value)),
    subscribe(listener) {
      let last = current();
      return deps.events.on('preferences:changed', () => {
        const now = current();
        if (now === last) return;
        last = now;
        listener(parseModelRef(now));
      });
    },
  };
}

async function currentModel(
  deps: AgentDeps,
  sessionId: string,
  platform?: string,
  venue?: string,
): Promise<ModelInfo | undefined> {
  let requested: string | undefined;
  if (deps.sessionFields.available && deps.sessionFields.use.field(FIELD.llm)) {
    const effective = await deps.sessionFields.use.get({ sessionId, platform, venue }, FIELD.llm);
    requested = modelRefText(effective.value);
  }
  return resolveSessionModel(deps, requested)?.model;
}

/** Options of `think`: the levels of the model the session would use (the `llm` value given, else the one in use). */
export function thinkingOptions(deps: AgentDeps) {
  return async ({ sessionId, values }: OptionSourceContext): Promise<FieldOption[]> => {
    const requested = modelRefText(values[FIELD.llm]);
    const model = requested ? resolveSessionModel(deps, requested)?.model : await currentModel(deps, sessionId);
    if (!model || model.thinking === 'not-adjustable') return [];
    return model.thinking.levels.map((level) => ({ value: level.id, label: level.name }));
  };
}

/**
 * The name a thinking level has on the models that declare it (the current model lacks it, so its own options cannot
 * name it: the first model in provider order that has the id), else the id itself.
 */
function levelNameOf(deps: AgentDeps, level: string): string {
  for (const model of listModels({ providers: deps.services.providers(llm) })) {
    if (model.thinking === 'not-adjustable') continue;
    const found = model.thinking.levels.find((candidate) => candidate.id === level);
    if (found) return found.name;
  }
  return level;
}

/**
 * What a settings UI writes beside an effective thinking level: 「当前模型没有这一档,按默认(…)」 when the model lacks
 * it, led by the level's name where that is not its id (the spec: 写这一档的名字与「当前模型没有这一档,按默认(<默认档的名字>)」;
 * the UIs show the value itself, the id, since the current model's options cannot name it), 「当前模型不能调」 when the
 * model cannot adjust; undefined when the level applies. `levelName`: the level's name where a model declares it.
 */
export function thinkingNote({
  model,
  level,
  levelName = level,
}: {
  model: ModelInfo;
  level: string;
  levelName?: string;
}): TextRef | undefined {
  if (model.thinking === 'not-adjustable') return textRef('agent.field.think.notAdjustable');
  if (model.thinking.levels.some((candidate) => candidate.id === level)) return undefined;
  const fallback = model.thinking.levels.find(
    (candidate) => candidate.id === (model.thinking as { default: string }).default,
  );
  return textRef(levelName === level ? 'agent.field.think.missing' : 'agent.field.think.missingNamed', {
    level: levelName,
    default: fallback?.name ?? (model.thinking as { default: string }).default,
  });
}
