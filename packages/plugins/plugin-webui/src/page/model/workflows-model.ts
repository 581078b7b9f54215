// The 工作流 page's state: the workflow files (each with its problems), the selected one's source as it is being
// edited (checked as it is typed), its graph laid out in layers, and 「最近运行」: its runs, the selected run's steps,
// kept fresh while a shown run is running.
import type {
  RunDetailView,
  RunView,
  SessionClient,
  WorkflowNodeView,
  WorkflowProblemView,
  WorkflowSummaryView,
  WorkflowView,
} from '@aalis/session-client';
import { StateStore } from './store.js';

/** A node placed for the read-only graph: its layer (longest path from a root) and row within the layer. */
export interface PlacedNode extends WorkflowNodeView {
  layer: number;
  row: number;
}

export interface WorkflowsSnapshot {
  workflows: readonly WorkflowSummaryView[];
  selected?: string;
  /** The selected workflow as saved. */
  workflow?: WorkflowView;
  /** What the editor holds (may differ from what is saved). */
  draft: string;
  /** The draft's problems, as last checked. */
  problems: readonly WorkflowProblemView[];
  dirty: boolean;
  graph: readonly PlacedNode[];
  runs: readonly RunView[];
  run?: RunDetailView;
  busy: boolean;
  /** The last refused action, in the page's language. */
  error?: string;
}

/** Places each node in the layer after its deepest need (a DAG; a cycle's nodes land in layer 0). */
export function layoutGraph(nodes: readonly WorkflowNodeView[]): PlacedNode[] {
  const byId = new Map(nodes.map((node) => [node.id, node] as const));
  const layers = new Map<string, number>();
  const layerOf = (id: string, seen: Set<string>): number => {
    const known = layers.get(id);
    if (known !== undefined) return known;
    if (seen.has(id)) return 0;
    seen.add(id);
    const needs = byId.get(id)?.needs.filter((need) => byId.has(need)) ?? [];
    const layer = needs.length === 0 ? 0 : Math.max(...needs.map((need) => layerOf(need, seen))) + 1;
    layers.set(id, layer);
    return layer;
  };
  const rows = new Map<number, number>();
  return nodes.map((node) => {
    const layer = layerOf(node.id, new Set());
    const row = rows.get(layer) ?? 0;
    rows.set(layer, row + 1);
    return { ...node, layer, row };
  });
}

const NEW_WORKFLOW = `description: ""
inputs: {}
nodes:
  - id: first
    kind: wait
    duration: 1s
`;

export class WorkflowsModel extends StateStore<WorkflowsSnapshot> {
  private checkTimer: ReturnType<typeof setTimeout> | undefined;
  private pollTimer: ReturnType<typeof setTimeout> | undefined;
  private checkSeq = 0;

  constructor(
    private readonly client: SessionClient,
    private readonly describe: (error: unknown) => string,
    private readonly checkDelayMs = 300,
    private readonly pollMs = 1000,
  ) {
    super({
      workflows: [],
      draft: '',
      problems: [],
      dirty: false,
      graph: [],
      runs: [],
      busy: false,
    });
  }

  private async attempt<T>(work: () => Promise<T>): Promise<T | undefined> {
    this.set({ busy: true, error: undefined });
    try {
      return await work();
    } catch (error) {
      this.set({ error: this.describe(error) });
      return undefined;
    } finally {
      this.set({ busy: false });
    }
  }

  async load(): Promise<void> {
    await this.attempt(async () => {
      const { workflows } = await this.client.request('workflows.list', {});
      this.set({ workflows });
      const first = this.state.selected ?? workflows[0]?.name;
      if (first) await this.select(first);
    });
  }

  async select(name: string): Promise<void> {
    await this.attempt(async () => {
      const { workflow } = await this.client.request('workflows.get', { name });
      const { runs } = await this.client.request('runs.list', { workflow: name, limit: 20 });
      this.set({
        selected: name,
        workflow,
        draft: workflow.source,
        problems: workflow.problems,
        dirty: false,
        graph: layoutGraph(workflow.nodes),
        runs,
        run: undefined,
      });
      this.schedulePoll();
    });
  }

  /** A new, unsaved workflow with a starting text. */
  create(name: string): void {
    this.set({
      selected: name,
      workflow: undefined,
      draft: NEW_WORKFLOW,
      problems: [],
      dirty: true,
      graph: [],
      runs: [],
      run: undefined,
    });
    this.edit(NEW_WORKFLOW);
  }

  /** The editor's text changed: checked once typing pauses. */
  edit(draft: string): void {
    this.set({ draft, dirty: draft !== this.state.workflow?.source });
    clearTimeout(this.checkTimer);
    const name = this.state.selected;
    if (!name) return;
    const seq = ++this.checkSeq;
    this.checkTimer = setTimeout(() => {
      void this.client
        .request('workflows.validate', { name, source: draft })
        .then(({ problems }) => {
          if (seq === this.checkSeq) this.set({ problems });
        })
        .catch((error: unknown) => this.set({ error: this.describe(error) }));
    }, this.checkDelayMs);
  }

  async save(): Promise<boolean> {
    const name = this.state.selected;
    if (!name) return false;
    const saved = await this.attempt(() => this.client.request('workflows.save', { name, source: this.state.draft }));
    if (!saved) return false;
    const { workflows } = await this.client.request('workflows.list', {});
    this.set({
      workflows,
      workflow: saved.workflow,
      problems: [],
      dirty: false,
      graph: layoutGraph(saved.workflow.nodes),
    });
    return true;
  }

  async remove(): Promise<void> {
    const name = this.state.selected;
    if (!name) return;
    await this.attempt(async () => {
      await this.client.request('workflows.delete', { name });
      const { workflows } = await this.client.request('workflows.list', {});
      this.set({
        workflows,
        selected: undefined,
        workflow: undefined,
        draft: '',
        graph: [],
        runs: [],
        run: undefined,
      });
    });
  }

  async start(inputs: Record<string, unknown>): Promise<void> {
    const name = this.state.selected;
    if (!name) return;
    await this.attempt(async () => {
      const { run } = await this.client.request('workflows.run', { name, inputs });
      this.set({ runs: [run, ...this.state.runs] });
      await this.showRun(run.id);
    });
  }

  async rerun(run: RunView): Promise<void> {
    await this.start({ ...run.inputs });
  }

  async showRun(runId: string): Promise<void> {
    const detail = await this.attempt(() => this.client.request('runs.get', { runId }));
    if (detail) this.set({ run: detail.run });
    this.schedulePoll();
  }

  async cancel(runId: string): Promise<void> {
    await this.attempt(() => this.client.request('runs.cancel', { runId }));
    await this.refreshRuns();
  }

  async refreshRuns(): Promise<void> {
    const name = this.state.selected;
    if (!name) return;
    try {
      const { runs } = await this.client.request('runs.list', { workflow: name, limit: 20 });
      const shown = this.state.run
        ? (await this.client.request('runs.get', { runId: this.state.run.id })).run
        : undefined;
      this.set({ runs, ...(shown ? { run: shown } : {}) });
    } catch (error) {
      this.set({ error: this.describe(error) });
    }
    this.schedulePoll();
  }

  /** While a shown run is running, its state is asked for again. */
  private schedulePoll(): void {
    clearTimeout(this.pollTimer);
    const running = this.state.runs.some((run) => run.status === 'running') || this.state.run?.status === 'running';
    if (running) this.pollTimer = setTimeout(() => void this.refreshRuns(), this.pollMs);
  }

  dispose(): void {
    clearTimeout(this.checkTimer);
    clearTimeout(this.pollTimer);
  }
}
