// The subtasks of this process: spawning a child session (kind `child`), its model set with assignModel before its
// first message, that message a delegation (triggerType 'proactive'); waiting, stopping, the tree budget, and the
// host notice that opens a continuation turn in the parent when a background subtask ends.
import { randomUUID } from 'node:crypto';
import type { BoundAgent, ModelRef } from '@aalis/api-agent';
import { type LlmService, type LlmUsageEvent, listModels } from '@aalis/api-llm';
import type { PersonaService } from '@aalis/api-persona';
import { PERSONA_FIELD_KEY } from '@aalis/api-persona';
import type { SessionManagerService } from '@aalis/api-session-manager';
import type { SessionFieldsService } from '@aalis/api-session-settings';
import { ENABLED_TOOL_GROUPS_KEY, type ToolCallContext } from '@aalis/api-tools';
import type { Events, I18n, Logger, ProviderInfo } from '@aalis/core';
import { textRef } from '@aalis/core';
import type { Identity, IncomingMessage } from '@aalis/schema-message';
import { SUBTASK_DEFAULTS, SUBTASK_FIELD } from './subtask-fields.js';
import { type SubtaskRecord, type SubtaskTree, toBackgroundTask } from './subtask-record.js';
import { subtaskErrors } from './subtask-texts.js';

/** The `source` of the inputs this plugin injects (a child's delegation, a parent's host notice). */
export const SUBTASK_SOURCE = 'subtask';
/** The platform of child sessions: their replies go nowhere but to the parent. */
export const SUBTASK_PLATFORM = 'subtask';

export interface SubtaskDeps {
  agent(): BoundAgent;
  sessions(): SessionManagerService | undefined;
  fields(): SessionFieldsService | undefined;
  llmProviders(): readonly ProviderInfo<LlmService>[];
  persona(): PersonaService | undefined;
  /** The model the agent uses now for a session with no model set (its llm preference chain). */
  defaultModel(): ModelRef | undefined;
  events: Events;
  i18n: I18n;
  logger: Logger;
}

export interface SpawnRequest {
  task: string;
  model?: string;
  persona?: string;
  toolGroups?: string[];
  background?: boolean;
}

export interface TurnEnd {
  reply: string | undefined;
  outcome: string;
  error?: string;
}

export class SubtaskManager {
  private readonly records = new Map<string, SubtaskRecord>();
  private readonly byChild = new Map<string, SubtaskRecord>();
  /** The last turn end of each child session, recorded by the agent:turn:after middleware. */
  private readonly turnEnds = new Map<string, TurnEnd>();
  private disposed = false;

  constructor(private readonly deps: SubtaskDeps) {}

  list(parentSessionId: string): SubtaskRecord[] {
    return [...this.records.values()]
      .filter((record) => record.parentSessionId === parentSessionId)
      .sort((a, b) => Number(b.status === 'running') - Number(a.status === 'running') || b.createdAt - a.createdAt);
  }

  get(id: string): SubtaskRecord | undefined {
    return this.records.get(id);
  }

  isChild(sessionId: string): boolean {
    return this.byChild.has(sessionId);
  }

  /**
   * Whether a turn opened by these inputs only repeats what the person already has: each is the host notice of a
   * background subtask whose result a wait_subtasks returned in a turn that replied (the one that spawned it, or a
   * later one) before the notice's turn began. Decided when the turn begins, since the notice may be queued behind
   * that very turn.
   */
  isReportedNotice(inputs: readonly { message: IncomingMessage }[]): boolean {
    return (
      inputs.length > 0 &&
      inputs.every(({ message }) => {
        const notice = message.hostNotice;
        if (message.source !== SUBTASK_SOURCE || notice?.kind !== 'subtask') return false;
        const record = this.records.get(notice.id);
        return record !== undefined && record.parentSessionId === message.sessionId && record.reported === true;
      })
    );
  }

  /** A turn of a parent session ended: the results its wait_subtasks returned count as reported if it replied. */
  parentTurnEnded(sessionId: string, turnId: string, outcome: string): void {
    for (const record of this.records.values()) {
      if (record.parentSessionId === sessionId && record.reportedIn === turnId) {
        record.reported = outcome === 'replied';
        delete record.reportedIn;
      }
    }
  }

  recordTurnEnd(sessionId: string, end: TurnEnd): void {
    if (this.byChild.has(sessionId)) this.turnEnds.set(sessionId, end);
  }

  async spawn(request: SpawnRequest, context: ToolCallContext): Promise<SubtaskRecord> {
    const sessions = this.deps.sessions();
    const fields = this.deps.fields();
    if (!sessions || !fields) throw subtaskErrors.AALIS_SUBTASK_NEEDS_SESSIONS();
    const task = request.task.trim();
    if (task === '') throw subtaskErrors.AALIS_SUBTASK_TASK_EMPTY();
    const parent = await sessions.get(context.sessionId);
    const scope = { sessionId: context.sessionId, platform: context.platform, venue: parent?.venue };
    const setting = async (key: string, fallback: number) => {
      const value = fields.field(key) ? (await fields.get(scope, key)).value : undefined;
      return typeof value === 'number' ? value : fallback;
    };
    const parentRecord = this.byChild.get(context.sessionId);
    const depth = (parentRecord?.depth ?? (await this.depthOf(sessions, context.sessionId))) + 1;
    // A child session has no layer of its own for the limits: the depth and concurrency set where the tree started
    // hold for it.
    const maxDepth = parentRecord?.tree.maxDepth ?? (await setting(SUBTASK_FIELD.maxDepth, SUBTASK_DEFAULTS.maxDepth));
    if (depth > maxDepth) throw subtaskErrors.AALIS_SUBTASK_TOO_DEEP({ depth: depth - 1, max: maxDepth });
    const running = this.list(context.sessionId).filter((record) => record.status === 'running').length;
    const maxConcurrent =
      parentRecord?.tree.maxConcurrent ?? (await setting(SUBTASK_FIELD.maxConcurrent, SUBTASK_DEFAULTS.maxConcurrent));
    if (running >= maxConcurrent) throw subtaskErrors.AALIS_SUBTASK_TOO_MANY({ running, max: maxConcurrent });
    if (parentRecord?.tree.overBudget) throw new Error(parentRecord.tree.overBudget);
    const model = request.model === undefined ? await this.parentModel(fields, scope) : this.findModel(request.model);
    if (request.persona !== undefined) this.checkPersona(request.persona);

    const id = `st-${randomUUID().slice(0, 8)}`;
    const childSessionId = `subtask:${id}`;
    const tree: SubtaskTree = parentRecord?.tree ?? {
      id,
      maxDepth,
      maxConcurrent,
      tokenBudget: await setting(SUBTASK_FIELD.tokenBudget, SUBTASK_DEFAULTS.tokenBudget),
      costBudget: await setting(SUBTASK_FIELD.costBudget, SUBTASK_DEFAULTS.costBudget),
      tokens: 0,
      cost: 0,
    };
    await sessions.ensure({
      id: childSessionId,
      kind: 'child',
      platform: SUBTASK_PLATFORM,
      parentId: context.sessionId,
      title: task.length > 80 ? `${task.slice(0, 80)}…` : task,
    });
    // 「在建好之后、发首条消息之前调」: the child's model is its own session-layer value before anything runs.
    if (model) await this.deps.agent().assignModel(childSessionId, model);
    // The child's own persona and tool groups, where asked for and where those fields exist.
    const setForChild = async (key: string, value: unknown) => {
      if (value === undefined || !fields.field(key)) return;
      await fields.set({ layer: 'session', target: childSessionId, key, value, caller: { via: 'host' } });
    };
    await setForChild(PERSONA_FIELD_KEY, request.persona);
    await setForChild(ENABLED_TOOL_GROUPS_KEY, request.toolGroups);
    let settle!: () => void;
    const record: SubtaskRecord = {
      id,
      parentSessionId: context.sessionId,
      childSessionId,
      tree,
      depth,
      task,
      background: request.background === true,
      status: 'running',
      createdAt: Date.now(),
      tokens: 0,
      cost: 0,
      origin: {
        turnId: context.turnId,
        sessionId: context.sessionId,
        platform: context.platform,
        participants: context.participants.map((participant) => ({ ...participant })),
        ...(context.userId !== undefined ? { userId: context.userId } : {}),
      },
      ...(context.inbound.messageId !== undefined ? { messageId: context.inbound.messageId } : {}),
      platform: context.platform,
      ...(parent?.venue !== undefined ? { venue: parent.venue } : {}),
      settled: new Promise<void>((resolve) => {
        settle = resolve;
      }),
    };
    this.records.set(id, record);
    this.byChild.set(childSessionId, record);
    this.changed(record);
    const delegation: IncomingMessage = {
      sessionId: childSessionId,
      platform: SUBTASK_PLATFORM,
      sender: {},
      content: task,
      source: SUBTASK_SOURCE,
      triggerType: 'proactive',
      fromTurn: record.origin,
      timestamp: Date.now(),
    };
    void this.run(record, delegation, settle).finally(settle);
    return record;
  }

  /** Stops a subtask and the subtasks it started (their turns aborted, queued inputs released). */
  stop(record: SubtaskRecord, options: { by?: Identity; reason: string; error?: string }): boolean {
    if (record.status !== 'running') return false;
    record.status = options.error ? 'failed' : 'stopped';
    if (options.error) record.error = options.error;
    if (options.by) record.stoppedBy = options.by;
    record.endedAt = Date.now();
    for (const child of this.records.values()) {
      if (child.parentSessionId === record.childSessionId) this.stop(child, options);
    }
    this.deps.agent().abort(record.childSessionId, {
      queued: true,
      reason: options.reason,
      ...(options.by ? { by: options.by } : {}),
    });
    this.changed(record);
    return true;
  }

  /** Accounts a model call of a child session to its subtask and tree; over budget stops the whole tree. */
  onUsage(event: LlmUsageEvent): void {
    const record = this.byChild.get(event.sessionId);
    if (!record) return;
    const tokens = event.promptTokens + event.completionTokens;
    record.tokens += tokens;
    record.tree.tokens += tokens;
    if (event.estimatedCost !== undefined) {
      record.cost += event.estimatedCost;
      record.tree.cost += event.estimatedCost;
      if (event.currency) record.tree.currency = event.currency;
    }
    this.changed(record);
    const tree = record.tree;
    if (tree.overBudget) return;
    const overTokens = tree.tokenBudget > 0 && tree.tokens > tree.tokenBudget;
    const overCost = tree.costBudget > 0 && tree.cost > tree.costBudget;
    if (!overTokens && !overCost) return;
    const error = subtaskErrors
      .AALIS_SUBTASK_OVER_BUDGET({
        used: overTokens ? `${tree.tokens} token` : `${tree.cost.toFixed(4)} ${tree.currency ?? ''}`.trim(),
        budget: overTokens ? `${tree.tokenBudget} token` : `${tree.costBudget} ${tree.currency ?? ''}`.trim(),
        setting: overTokens ? SUBTASK_FIELD.tokenBudget : SUBTASK_FIELD.costBudget,
      })
      .localized(this.deps.i18n.locale);
    tree.overBudget = error;
    this.deps.logger.warn('subtask tree over budget; stopping it', { tree: tree.id, tokens: tree.tokens });
    for (const member of this.records.values()) {
      if (member.tree === tree) this.stop(member, { reason: 'subtask budget', error });
    }
  }

  /** A session is being deleted: its subtasks (as a parent) and its own record (as a child) end here. */
  onSessionDeleted(sessionId: string): void {
    const own = this.byChild.get(sessionId);
    if (own && own.status === 'running') {
      own.status = 'stopped';
      own.endedAt = Date.now();
      this.changed(own);
    }
    for (const record of [...this.records.values()]) {
      if (record.parentSessionId === sessionId) {
        this.records.delete(record.id);
        this.byChild.delete(record.childSessionId);
        this.turnEnds.delete(record.childSessionId);
      }
    }
  }

  dispose(): void {
    this.disposed = true;
  }

  private async run(record: SubtaskRecord, delegation: IncomingMessage, settle: () => void): Promise<void> {
    try {
      await this.deps.agent().handleMessage(delegation);
      const end = this.turnEnds.get(record.childSessionId);
      this.turnEnds.delete(record.childSessionId);
      if (record.status === 'running') {
        if (end?.outcome === 'replied' && end.reply !== undefined) {
          record.status = 'done';
          record.result = end.reply;
        } else if (end?.outcome === 'aborted' || end === undefined) {
          record.status = 'stopped';
        } else {
          record.status = end.outcome === 'error' ? 'failed' : 'done';
          record.error = end.error ?? this.t('subtask.result.noReply', { outcome: end.outcome });
        }
        record.endedAt = Date.now();
      }
    } catch (error) {
      if (record.status === 'running') {
        record.status = 'failed';
        record.error = error instanceof Error ? error.message : String(error);
        record.endedAt = Date.now();
      }
    }
    this.changed(record);
    // Settled before the host notice: the notice's continuation turn queues behind the parent's running turn, so a
    // wait_subtasks in that turn that waited for the notice too would wait until its timeout.
    settle();
    // A background subtask someone stopped (its button, 全部停止, deleting it) reports nothing: stopping means
    // no more work, and a continuation turn would be new work. Finished or failed ones report back.
    if (record.background && record.status !== 'stopped' && !this.disposed) await this.notifyParent(record);
  }

  /** The host notice of a finished background subtask: a continuation of the turn that spawned it. */
  private async notifyParent(record: SubtaskRecord): Promise<void> {
    const sessions = this.deps.sessions();
    if (sessions && (sessions.isDeleting(record.parentSessionId) || !(await sessions.get(record.parentSessionId)))) {
      return;
    }
    const result = record.result ?? record.error ?? this.t('subtask.result.stopped');
    const notice: IncomingMessage = {
      sessionId: record.parentSessionId,
      platform: record.platform,
      ...(record.venue !== undefined ? { venue: record.venue } : {}),
      sender: {},
      content: this.t('subtask.notice.done', { id: record.id, status: record.status, task: record.task }),
      source: SUBTASK_SOURCE,
      hostNotice: { kind: 'subtask', id: record.id, untrusted: this.t('subtask.notice.untrusted', { result }) },
      fromTurn: record.origin,
      timestamp: Date.now(),
    };
    if (record.messageId !== undefined) {
      // inbound.messageId of the continuation is the message that started it, and the reply quotes it.
      notice.messageId = record.messageId;
      notice.replyTo = record.messageId;
    }
    try {
      await this.deps.agent().handleMessage(notice);
    } catch (error) {
      this.deps.logger.warn('subtask notice failed', { subtask: record.id, error: String(error) });
    }
  }

  private async depthOf(sessions: SessionManagerService, sessionId: string): Promise<number> {
    let depth = 0;
    let current = await sessions.get(sessionId);
    while (current?.parentId !== undefined && depth < 64) {
      if (current.kind === 'child') depth++;
      current = await sessions.get(current.parentId);
    }
    return depth;
  }

  private findModel(value: string): ModelRef {
    const models = listModels({ providers: this.deps.llmProviders() });
    const found = models.find((model) => model.id === value);
    if (!found) {
      throw subtaskErrors.AALIS_SUBTASK_UNKNOWN_MODEL({
        model: value,
        available: models.length > 0 ? models.map((model) => model.id).join(', ') : '-',
      });
    }
    return { provider: found.provider, model: found.model };
  }

  /** 「建子会话时父会话没设模型的写下这一个」: the model the parent uses now, as the child's own value. */
  private async parentModel(
    fields: SessionFieldsService,
    scope: { sessionId: string; platform: string; venue?: string | undefined },
  ): Promise<ModelRef | undefined> {
    if (!fields.field('llm')) return undefined;
    const value = (await fields.get(scope, 'llm')).value as ModelRef | undefined;
    if (value && typeof value.provider === 'string' && typeof value.model === 'string') return value;
    return this.deps.defaultModel();
  }

  private checkPersona(id: string): void {
    const personas = this.deps.persona();
    if (!personas) return;
    if (personas.get(id)) return;
    throw subtaskErrors.AALIS_SUBTASK_UNKNOWN_PERSONA({
      persona: id,
      available:
        personas
          .list()
          .map((persona) => persona.id)
          .join(', ') || '-',
    });
  }

  private changed(record: SubtaskRecord): void {
    this.deps.events.emit('background:changed', { sessionId: record.parentSessionId, task: toBackgroundTask(record) });
  }

  private t(key: string, params?: Record<string, string | number>): string {
    return this.deps.i18n.t(textRef(key, params));
  }
}
