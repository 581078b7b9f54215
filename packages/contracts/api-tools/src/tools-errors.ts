// Coded errors of the tools service. Registration errors are thrown to the registering plugin; execution errors are
// returned to the model as error results (ToolResult.isError, ToolResult.code), never thrown through the agent.
import { defineErrors } from '@aalis/core';

export const toolsErrors = defineErrors({
  AALIS_TOOLS_NAME_INVALID: {
    en: 'Tool name "{name}" is invalid: use 1 to 64 characters from a-z, A-Z, 0-9, "_" and "-" (model APIs accept nothing else).',
    'zh-CN': '工具名「{name}」不合法：只能用 1 到 64 个 a-z、A-Z、0-9、「_」和「-」（模型接口只接受这些）。',
  },
  AALIS_TOOLS_DUPLICATE: {
    en: 'Tool "{name}" is already registered by plugin {owner}. Tool names are global: choose another name, or disable the other plugin.',
    'zh-CN': '工具「{name}」已由插件 {owner} 注册。工具名全局唯一：请换一个名字，或停用另一个插件。',
  },
  AALIS_TOOLS_DEFINITION_INVALID: {
    en: 'Tool "{name}" cannot be registered: {reason}',
    'zh-CN': '工具「{name}」无法注册：{reason}',
  },
  AALIS_TOOLS_UNKNOWN: {
    en: 'There is no tool named "{name}". Call only the tools listed in your tool definitions, spelled exactly as listed.',
    'zh-CN': '没有名为「{name}」的工具。只能调用工具定义里列出的工具，名字一字不差。',
  },
  AALIS_TOOLS_GROUP_DISABLED: {
    en: 'Tool "{name}" belongs to the tool group "{group}", which is not enabled in this session. Use another tool, or ask the user to enable the group with /session.set enabledToolGroups.',
    'zh-CN':
      '工具「{name}」属于工具分组「{group}」，这个会话没有启用它。请改用别的工具，或请用户用 /session.set enabledToolGroups 启用这个分组。',
  },
  AALIS_TOOLS_ARGUMENTS_NOT_JSON: {
    en: 'The arguments of tool "{name}" are not a JSON object ({reason}). Send the arguments as one JSON object, e.g. {"key": "value"}. Received: {excerpt}',
    'zh-CN':
      '工具「{name}」的参数不是 JSON 对象（{reason}）。请把参数写成一个 JSON 对象，例如 {"key": "value"}。收到的是：{excerpt}',
  },
  AALIS_TOOLS_ARGUMENTS_INVALID: {
    en: 'The arguments of tool "{name}" do not match its parameters schema; the tool did not run. Fix these and call it again:\n{violations}',
    'zh-CN': '工具「{name}」的参数不符合它的参数定义，工具没有执行。请改正以下各处后再调用：\n{violations}',
  },
  AALIS_TOOLS_LEVEL_DENIED: {
    en: 'Tool "{name}" needs authority level {required}; the people in this turn have {actual}. The tool did not run. Tell the user that someone with level {required} has to ask for it.',
    'zh-CN':
      '工具「{name}」需要 {required} 级权限，这一轮的参与者是 {actual}。工具没有执行。请告诉用户需要 {required} 级的人来要求。',
  },
  AALIS_TOOLS_HANDLER_FAILED: {
    en: 'Tool "{name}" failed: {reason}',
    'zh-CN': '工具「{name}」执行出错：{reason}',
  },
  AALIS_TOOLS_ABORTED: {
    en: 'Tool "{name}" did not run: the turn was stopped.',
    'zh-CN': '工具「{name}」没有执行：这一轮已被停下。',
  },
  AALIS_TOOLS_GROUPS_INVALID: {
    en: 'Tool groups must be "*" (every group) or a list of group names made of a-z, A-Z, 0-9, "_", "-", "." and ":"; received {received}.',
    'zh-CN':
      '工具分组只能是「*」（全部分组）或由 a-z、A-Z、0-9、「_」「-」「.」「：」组成的分组名列表；收到的是 {received}。',
  },
});
