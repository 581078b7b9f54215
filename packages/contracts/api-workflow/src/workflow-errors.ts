// The coded errors of the workflow service.
import { defineErrors } from '@aalis/core';

export const workflowErrors = defineErrors({
  AALIS_WORKFLOW_UNKNOWN: {
    en: 'There is no workflow named "{name}". `/workflow list` lists them; a workflow is a file <dataDir>/workflows/<name>.yaml.',
    'zh-CN': '没有名为「{name}」的工作流。/workflow list 列出现有的；工作流是数据目录下的 workflows/<名字>.yaml 文件。',
  },
  AALIS_WORKFLOW_NAME_INVALID: {
    en: 'A workflow name must be 1–64 letters, digits, "-" or "_", starting with a letter or digit; received "{name}".',
    'zh-CN': '工作流的名字应为 1–64 个字母、数字、「-」或「_」，以字母或数字开头；实际为「{name}」。',
  },
  AALIS_WORKFLOW_INVALID: {
    en: 'The workflow "{name}" cannot be used: {problems}',
    'zh-CN': '工作流「{name}」用不了：{problems}',
  },
  AALIS_WORKFLOW_INPUT_INVALID: {
    en: 'The workflow "{name}" cannot start with these inputs: {problems}',
    'zh-CN': '工作流「{name}」不能用这些输入开始：{problems}',
  },
  AALIS_WORKFLOW_RUN_UNKNOWN: {
    en: 'There is no workflow run with the id "{id}". `/workflow runs` lists the latest.',
    'zh-CN': '没有 id 为「{id}」的运行。/workflow runs 列出最近的运行。',
  },
  AALIS_WORKFLOW_WEBHOOK_REFUSED: {
    en: 'This webhook does not start a workflow: the workflow does not exist, does not list `webhook: true` under its triggers, or the secret (Authorization: Bearer <plugins.workflow.webhookSecret>) is wrong or not configured.',
    'zh-CN':
      '这个 webhook 启动不了工作流：工作流不存在、它的 triggers 里没有 webhook: true，或密钥（Authorization: Bearer <plugins.workflow.webhookSecret>）不对或没有配置。',
    statusCode: 401,
  },
  AALIS_WORKFLOW_TOO_DEEP: {
    en: 'The workflow "{name}" starts workflows {depth} levels deep; at most {limit} are allowed. Check its workflow nodes for a loop.',
    'zh-CN': '工作流「{name}」嵌套启动了 {depth} 层工作流，最多 {limit} 层。请检查它的 workflow 节点是否互相调用。',
  },
});
