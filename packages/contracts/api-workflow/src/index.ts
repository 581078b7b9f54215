// @aalis/api-workflow: the workflow (编排) contract: workflow definitions (YAML DAGs of nodes), runs and their
// steps as stored, the workflow service and its coded errors.
export * from './workflow-definition.js';
export { workflowErrors } from './workflow-errors.js';
export type { WorkflowProblem } from './workflow-problems.js';
export type { RunDetail, RunInfo, RunStatus, RunTrigger, StepInfo, StepStatus } from './workflow-run.js';
export { type StartOptions, type WorkflowService, type WorkflowSummary, workflow } from './workflow-service.js';
