// @aalis/plugin-workflow: workflows (编排) — YAML files of agent, tool, send, wait, condition, map and sub-workflow
// nodes forming a DAG, with JSONata expressions; runs persisted step by step on SQLite or PostgreSQL and resumed after
// a restart; the workflow_run tool, /workflow, scheduled workflows.
export { parseWorkflow } from './definition-parser.js';
export { WORKFLOW_SOURCE } from './node-runners.js';
export { RunEngine } from './run-engine.js';
export { workflowConfigSchema } from './workflow-config.js';
export { default, WORKFLOW_PLUGIN } from './workflow-plugin.js';
export { workflowTexts } from './workflow-texts.js';
export { WORKFLOW_RUN_TOOL } from './workflow-tool.js';
