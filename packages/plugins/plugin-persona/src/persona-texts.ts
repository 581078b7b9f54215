// Texts of plugin-persona: load problems, the default persona written on first start, the reload command.
import { defineCatalogue } from '@aalis/core';

export const personaTexts = defineCatalogue({
  'zh-CN': {
    'persona.problem.empty': '文件是空的；人设文件要写 id、name、prompt 三项',
    'persona.problem.notMapping': '顶层应为键值映射（id: …、name: …、prompt: …），实际为 {received}',
    'persona.problem.missing': '缺少必填字段「{field}」',
    'persona.problem.notString': '字段「{field}」应为非空文字',
    'persona.problem.badId': 'id「{id}」不合法：只能用 1 到 64 个 a-z、A-Z、0-9、「_」「-」「.」',
    'persona.problem.unknownField': '不认识的字段「{field}」（可用的字段：id、name、prompt、structuredOutput）',
    'persona.problem.structuredOutput': 'structuredOutput 应为 type 为 object 的 JSON Schema 映射',
    'persona.problem.syntax': 'YAML 语法错误：{message}',
    'persona.default.name': '爱丽丝',
    'persona.default.prompt':
      '你是爱丽丝（Aalis），一个友善、可靠的助手。回答简洁、准确；不确定的事直说不确定；需要时先问清楚再动手。',
    'persona.command.reload': '重新读取人设文件',
    'persona.command.reloaded': '已加载 {count} 个人设：{ids}',
    'persona.command.problems': '以下文件没有加载：',
    'persona.field.expected': '已有的人设之一（{known}；/persona 列出它们）',
  },
  en: {
    'persona.problem.empty': 'the file is empty; a persona file needs id, name and prompt',
    'persona.problem.notMapping': 'the top level must be a mapping (id: …, name: …, prompt: …), found {received}',
    'persona.problem.missing': 'required field "{field}" is missing',
    'persona.problem.notString': 'field "{field}" must be a non-empty text',
    'persona.problem.badId': 'id "{id}" is invalid: use 1 to 64 characters from a-z, A-Z, 0-9, "_", "-", "."',
    'persona.problem.unknownField': 'unknown field "{field}" (known fields: id, name, prompt, structuredOutput)',
    'persona.problem.structuredOutput': 'structuredOutput must be a JSON Schema mapping with type: object',
    'persona.problem.syntax': 'YAML syntax error: {message}',
    'persona.default.name': 'Aalis',
    'persona.default.prompt':
      'You are Aalis, a friendly and reliable assistant. Answer concisely and accurately; say so when you are not sure; ask before acting when a request is unclear.',
    'persona.command.reload': 'Read the persona files again',
    'persona.command.reloaded': 'Loaded {count, plural, one {# persona} other {# personas}}: {ids}',
    'persona.command.problems': 'These files were not loaded:',
    'persona.field.expected': 'one of the personas there are ({known}; /persona lists them)',
  },
});
