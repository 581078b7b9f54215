// The workflow plugin: the files in <dataDir>/workflows, the run engine over the storage engine's database (one
// process executes a run: the holder of its lease), the workflow_run tool, /workflow, scheduled workflows, and runs
// resumed after a restart or taken over from a process that died.
import { agent } from '@aalis/api-agent';
import { commands } from '@aalis/api-commands';
import { gateway } from '@aalis/api-gateway';
import { hooks } from '@aalis/api-hooks';
import { sessionManager } from '@aalis/api-session-manager';
import { openStore, storage } from '@aalis/api-storage';
import { tools } from '@aalis/api-tools';
import { type WorkflowService, workflow } from '@aalis/api-workflow';
import { config, definePlugin, i18n, lifecycle, logger, optional, provide, translatorOf } from '@aalis/core';
import { AgentNodeTurns } from './agent-node-turns.js';
import type { Translate } from './definition-parser.js';
import { nodeRunners } from './node-runners.js';
import { postgresRunStore } from './postgres-run-store.js';
import { RunEngine } from './run-engine.js';
import { sqliteRunStore } from './sqlite-run-store.js';
import { workflowCommands } from './workflow-commands.js';
import { workflowConfigSchema } from './workflow-config.js';
import { WorkflowFiles } from './workflow-files.js';
import { RUN_LEASE_PREFIX, WorkflowHost } from './workflow-host.js';
import { WorkflowSchedules } from './workflow-schedules.js';
import { workflowRunTool } from './workflow-tool.js';
import './workflow-texts.js';

export const WORKFLOW_PLUGIN = '@aalis/plugin-workflow';

export default definePlugin({
  name: WORKFLOW_PLUGIN,
  provides: [workflow],
  uses: {
    agent,
    hooks,
    tools,
    storage,
    config,
    i18n,
    logger,
    lifecycle,
    provide,
    gateway: optional(gateway),
    sessionManager: optional(sessionManager),
    commands: optional(commands),
  },
  config: workflowConfigSchema,
  async apply(handles) {
    const settings = handles.config.use;
    const log = handles.logger.use;
    const t: Translate = translatorOf(handles.i18n.use);
    const storageUse = handles.storage.use;
    const store = await openStore(storageUse, { sqlite: sqliteRunStore, postgres: postgresRunStore });
    const leases = storageUse.leases();
    const handOver = storageUse.handOver();
    const turns = new AgentNodeTurns();
    let service: WorkflowService | undefined;
    const engine = new RunEngine({
      store,
      t,
      logger: log,
      runners: nodeRunners({
        agent: () => handles.agent.use,
        tools: () => handles.tools.use,
        gateway: () => (handles.gateway.available ? handles.gateway.use : undefined),
        sessions: () => (handles.sessionManager.available ? handles.sessionManager.use : undefined),
        workflows: () => service!,
        turns,
        t,
        locale: () => handles.i18n.use.locale,
      }),
    });
    const host = new WorkflowHost({
      files: new WorkflowFiles(storageUse.resolve(settings.dir)),
      store,
      engine,
      t,
      toolExists: (name) => handles.tools.use.list().some((tool) => tool.name === name),
      leases,
      handOver,
      logger: log,
      webhookSecret: settings.webhookSecret,
    });
    service = host;
    handles.provide.use.service(workflow, host);
    handles.tools.use.register(workflowRunTool(() => host, handles.i18n.use));
    if (handles.commands.available)
      for (const command of workflowCommands(() => host)) handles.commands.use.register(command);
    handles.hooks.use.middleware('agent:turn:before', async (data, next) => {
      if (!turns.turnStarting(data.sessionId, data.turnId)) {
        log.info('a workflow turn was cancelled before it began', { sessionId: data.sessionId });
        return;
      }
      await next();
    });
    handles.hooks.use.middleware('agent:turn:after', async (data, next) => {
      turns.turnEnded(data);
      await next();
    });
    // A cancel asked for in another process reaches the one that executes the run.
    const stopSignals = handOver.onSignal((name, text) => {
      if (name.startsWith(RUN_LEASE_PREFIX) && text === 'cancel') engine.cancel(name.slice(RUN_LEASE_PREFIX.length));
    });

    // Runs nobody executes (this process restarted, or the one running them died) resume here.
    let resumeTimer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const resume = async () => {
      for (const row of await store.runningRuns(50)) {
        if (engine.isLive(row.id)) continue;
        const lease = await leases.tryAcquire(`${RUN_LEASE_PREFIX}${row.id}`);
        if (!lease) continue;
        // It may have ended between the look and the lease.
        const current = await store.getRun(row.id);
        if (current?.status !== 'running') {
          await lease.release();
          continue;
        }
        log.info('resuming a workflow run', { run: row.id, workflow: row.workflow });
        void engine.execute(current, lease);
      }
    };
    const sweep = async () => {
      if (stopped) return;
      try {
        await resume();
      } catch (error) {
        log.warn('workflow runs could not be resumed', { error: String(error) });
      }
      if (!stopped) resumeTimer = setTimeout(sweep, settings.resumeIntervalMs);
    };
    // After the host has started (the agent and tools are there), not during apply.
    resumeTimer = setTimeout(sweep, 0);
    const schedules = new WorkflowSchedules({
      service: host,
      store,
      logger: log,
      timeZone: settings.timeZone,
      pollMs: settings.schedulePollMs,
    });
    schedules.start();
    const stop = async () => {
      stopped = true;
      clearTimeout(resumeTimer);
      schedules.stop();
      stopSignals();
      // Runs stay running in the store and resume on the next start; their steps stop here.
      await engine.suspendAll();
    };
    handles.lifecycle.use.onDrain(stop);
    handles.lifecycle.use.onDispose(stop);
  },
});
