// The 工作流 page (owners): the workflow files, the selected one's YAML checked as it is typed (each problem with its
// line), a read-only graph of its nodes, and 「最近运行」 — every run with its steps' state, input, output, timing
// and error, cancel and run again.
import type { RunDetailView, RunView, StepView } from '@aalis/session-client';
import { defineComponent, h, type PropType, ref } from 'vue';
import { type PlacedNode, WorkflowsModel } from '../model/workflows-model.js';
import { preferences } from '../page-preferences.js';
import type { TextKey } from '../page-translator.js';
import { useConsoleModel } from '../use-console-model.js';
import { tw } from '../workflow-texts.js';
import { codedErrorLine } from './coded-error.js';
import { consoleProps } from './console-props.js';
import { deleteButton } from './delete-button.js';
import { pickItem } from './pick-item.js';
import { tableHead } from './table-head.js';

const NODE_WIDTH = 150;
const NODE_HEIGHT = 44;
const LAYER_GAP = 70;
const ROW_GAP = 16;

function statusText(status: string): string {
  return tw(`webui-page.workflows.status.${status}` as TextKey<typeof tw>);
}

function triggerText(trigger: string): string {
  return tw(`webui-page.workflows.trigger.${trigger}` as TextKey<typeof tw>);
}

function durationText(start: number, end: number | undefined): string {
  if (end === undefined) return '…';
  const ms = end - start;
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function json(value: unknown): string {
  if (value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

/** The graph as SVG: layers left to right, each need an arrow into the node that needs it. */
function graphView(nodes: readonly PlacedNode[], steps: readonly StepView[] | undefined) {
  if (nodes.length === 0) return h('p', { class: 'muted' }, tw('webui-page.workflows.graphEmpty'));
  const statusOf = new Map(steps?.filter((step) => step.key === step.nodeId).map((step) => [step.nodeId, step.status]));
  const x = (node: PlacedNode) => 8 + node.layer * (NODE_WIDTH + LAYER_GAP);
  const y = (node: PlacedNode) => 8 + node.row * (NODE_HEIGHT + ROW_GAP);
  const byId = new Map(nodes.map((node) => [node.id, node] as const));
  const width = Math.max(...nodes.map((node) => x(node) + NODE_WIDTH)) + 8;
  const height = Math.max(...nodes.map((node) => y(node) + NODE_HEIGHT)) + 8;
  const edges = nodes.flatMap((node) =>
    node.needs
      .map((need) => byId.get(need))
      .filter((need): need is PlacedNode => need !== undefined)
      .map((need) =>
        h('path', {
          key: `${need.id}->${node.id}`,
          class: 'workflow-edge',
          d: `M${x(need) + NODE_WIDTH},${y(need) + NODE_HEIGHT / 2} C${x(need) + NODE_WIDTH + LAYER_GAP / 2},${y(need) + NODE_HEIGHT / 2} ${x(node) - LAYER_GAP / 2},${y(node) + NODE_HEIGHT / 2} ${x(node)},${y(node) + NODE_HEIGHT / 2}`,
          'marker-end': 'url(#workflow-arrow)',
        }),
      ),
  );
  return h(
    'svg',
    {
      class: 'workflow-graph',
      'data-testid': 'workflow-graph',
      role: 'img',
      'aria-label': tw('webui-page.workflows.graph'),
      viewBox: `0 0 ${width} ${height}`,
      width,
      height,
    },
    [
      h('defs', [
        h(
          'marker',
          {
            id: 'workflow-arrow',
            viewBox: '0 0 10 10',
            refX: 9,
            refY: 5,
            markerWidth: 7,
            markerHeight: 7,
            orient: 'auto',
          },
          [h('path', { d: 'M0,0 L10,5 L0,10 z', class: 'workflow-arrow' })],
        ),
      ]),
      ...edges,
      ...nodes.map((node) =>
        h(
          'g',
          {
            key: node.id,
            class: 'workflow-node',
            'data-node': node.id,
            'data-status': statusOf.get(node.id) ?? 'idle',
          },
          [
            h('rect', { x: x(node), y: y(node), width: NODE_WIDTH, height: NODE_HEIGHT, rx: 8 }),
            h('text', { x: x(node) + 10, y: y(node) + 18, class: 'workflow-node-id' }, node.id),
            h(
              'text',
              { x: x(node) + 10, y: y(node) + 34, class: 'workflow-node-kind' },
              node.when ? `${node.kind} · when` : node.kind,
            ),
          ],
        ),
      ),
    ],
  );
}

function runDetail(run: RunDetailView) {
  return h('section', { class: 'workflow-run', 'data-testid': 'workflow-run', 'data-status': run.status }, [
    h('h3', tw('webui-page.workflows.runOf', { id: run.id })),
    // A cancelled run's status says it all; a failure's reason is shown as the server stored it.
    run.error && run.status === 'failed' ? h('p', { class: 'workflow-error', role: 'alert' }, run.error) : null,
    h(
      'div',
      { class: 'table-scroll' },
      h('table', { class: 'workflow-steps', 'data-testid': 'workflow-steps' }, [
        tableHead(
          tw('webui-page.workflows.step'),
          tw('webui-page.workflows.kind'),
          tw('webui-page.workflows.status'),
          tw('webui-page.workflows.attempts'),
          tw('webui-page.workflows.duration'),
          tw('webui-page.workflows.input'),
          tw('webui-page.workflows.output'),
        ),
        h(
          'tbody',
          run.steps.map((step) =>
            h(
              'tr',
              { key: step.key, 'data-testid': 'workflow-step', 'data-step': step.key, 'data-status': step.status },
              [
                h('td', h('code', step.key)),
                h('td', step.kind),
                h('td', { class: `status-${step.status}` }, statusText(step.status)),
                h('td', String(step.attempts)),
                h('td', durationText(step.startedAt, step.endedAt)),
                h('td', h('pre', { class: 'workflow-value' }, json(step.input))),
                h('td', [
                  step.error && step.status === 'failed'
                    ? h('pre', { class: 'workflow-value workflow-error' }, step.error)
                    : null,
                  step.output !== undefined ? h('pre', { class: 'workflow-value' }, json(step.output)) : null,
                ]),
              ],
            ),
          ),
        ),
      ]),
    ),
  ]);
}

export const WorkflowsView = defineComponent({
  name: 'WorkflowsView',
  props: {
    ...consoleProps,
    onBack: { type: Function as PropType<() => void>, required: true },
  },
  setup(props) {
    const { model, snapshot } = useConsoleModel(props, WorkflowsModel);
    const inputs = ref('{}');
    const inputsError = ref(false);
    const editor = ref<HTMLTextAreaElement | null>(null);
    const goToLine = (line: number) => {
      const area = editor.value;
      if (!area) return;
      const offset =
        area.value
          .split('\n')
          .slice(0, line - 1)
          .join('\n').length + (line > 1 ? 1 : 0);
      area.focus();
      area.setSelectionRange(offset, offset);
    };
    const run = () => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(inputs.value || '{}');
      } catch {
        parsed = undefined;
      }
      inputsError.value = typeof parsed !== 'object' || parsed === null || Array.isArray(parsed);
      if (!inputsError.value) void model.start(parsed as Record<string, unknown>);
    };
    const runRow = (entry: RunView) =>
      h(
        'tr',
        {
          key: entry.id,
          'data-testid': 'workflow-run-row',
          'data-status': entry.status,
          class: snapshot.value.run?.id === entry.id ? 'selected' : undefined,
        },
        [
          h(
            'td',
            h(
              'button',
              { type: 'button', class: 'link-button', onClick: () => void model.showRun(entry.id) },
              entry.id,
            ),
          ),
          h('td', { class: `status-${entry.status}` }, statusText(entry.status)),
          h('td', triggerText(entry.trigger)),
          h('td', new Date(entry.createdAt).toLocaleString(preferences.locale, { hour12: false })),
          h('td', durationText(entry.createdAt, entry.endedAt)),
          h('td', [
            entry.status === 'running'
              ? h(
                  'button',
                  { type: 'button', class: 'button', onClick: () => void model.cancel(entry.id) },
                  tw('webui-page.workflows.cancel'),
                )
              : h(
                  'button',
                  { type: 'button', class: 'button', onClick: () => void model.rerun(entry) },
                  tw('webui-page.workflows.rerun'),
                ),
          ]),
        ],
      );
    return () => {
      const state = snapshot.value;
      return h('main', { id: 'main', class: 'workflows', 'data-testid': 'workflows', tabindex: -1 }, [
        h('div', { class: 'admin-head' }, [
          h('h1', tw('webui-page.workflows')),
          h(
            'button',
            { type: 'button', class: 'button', onClick: () => props.onBack() },
            tw('webui-page.workflows.back'),
          ),
        ]),
        state.error
          ? h(
              'p',
              { class: 'workflow-error', role: 'alert', 'data-testid': 'workflow-error' },
              codedErrorLine(state.error),
            )
          : null,
        h('div', { class: 'workflows-layout' }, [
          h('nav', { class: 'workflows-list', 'aria-label': tw('webui-page.workflows.list') }, [
            state.workflows.length === 0 ? h('p', { class: 'muted' }, tw('webui-page.workflows.empty')) : null,
            h(
              'ul',
              state.workflows.map((entry) =>
                pickItem(
                  {
                    key: entry.name,
                    selected: state.selected === entry.name,
                    testId: 'workflow-item',
                    onPick: () => void model.select(entry.name),
                  },
                  [
                    h('span', { class: 'workflow-name' }, entry.name),
                    entry.problems ? h('span', { class: 'badge warn' }, tw('webui-page.workflows.invalid')) : null,
                    entry.description ? h('span', { class: 'muted workflow-description' }, entry.description) : null,
                  ],
                ),
              ),
            ),
            h(
              'button',
              {
                type: 'button',
                class: 'button',
                'data-testid': 'workflow-new',
                onClick: () => {
                  const name = window.prompt(tw('webui-page.workflows.newName'))?.trim();
                  if (name) model.create(name);
                },
              },
              tw('webui-page.workflows.new'),
            ),
          ]),
          state.selected
            ? h('div', { class: 'workflow-detail' }, [
                h('section', { class: 'workflow-editor', 'aria-labelledby': 'workflow-source' }, [
                  h('div', { class: 'section-head' }, [
                    h('h2', { id: 'workflow-source' }, `${state.selected} · ${tw('webui-page.workflows.source')}`),
                    h(
                      'span',
                      { class: 'muted' },
                      state.dirty ? tw('webui-page.workflows.unsaved') : tw('webui-page.workflows.saved'),
                    ),
                    h(
                      'button',
                      {
                        type: 'button',
                        class: 'button primary',
                        'data-testid': 'workflow-save',
                        disabled: state.busy || state.problems.length > 0 || !state.dirty,
                        onClick: () => void model.save(),
                      },
                      tw('webui-page.workflows.save'),
                    ),
                    state.workflow
                      ? deleteButton({
                          label: tw('webui-page.workflows.delete'),
                          question: tw('webui-page.workflows.deleteConfirm', { name: state.selected ?? '' }),
                          remove: () => void model.remove(),
                        })
                      : null,
                  ]),
                  h('textarea', {
                    ref: editor,
                    class: 'workflow-source',
                    'data-testid': 'workflow-source',
                    'aria-label': tw('webui-page.workflows.source'),
                    spellcheck: false,
                    value: state.draft,
                    onInput: (event: Event) => model.edit((event.target as HTMLTextAreaElement).value),
                  }),
                  h('div', { class: 'workflow-problems', 'aria-live': 'polite', 'data-testid': 'workflow-problems' }, [
                    h('h3', tw('webui-page.workflows.problems')),
                    state.problems.length === 0
                      ? h('p', { class: 'muted' }, tw('webui-page.workflows.noProblems'))
                      : h(
                          'ul',
                          state.problems.map((problem, index) =>
                            h('li', { key: index }, [
                              h(
                                'button',
                                {
                                  type: 'button',
                                  class: 'link-button workflow-problem',
                                  'data-testid': 'workflow-problem',
                                  'data-line': problem.line,
                                  onClick: () => goToLine(problem.line),
                                },
                                tw('webui-page.workflows.problem', {
                                  line: problem.line,
                                  column: problem.column,
                                  message: problem.message,
                                }),
                              ),
                            ]),
                          ),
                        ),
                  ]),
                ]),
                h('section', { class: 'workflow-graph-box', 'aria-labelledby': 'workflow-graph-title' }, [
                  h('div', { class: 'section-head' }, [
                    h('h2', { id: 'workflow-graph-title' }, tw('webui-page.workflows.graph')),
                  ]),
                  h('div', { class: 'workflow-graph-scroll' }, graphView(state.graph, state.run?.steps)),
                ]),
                h('section', { class: 'workflow-runs', 'aria-labelledby': 'workflow-runs-title' }, [
                  h('div', { class: 'section-head' }, [
                    h('h2', { id: 'workflow-runs-title' }, tw('webui-page.workflows.runs')),
                    h('label', { class: 'workflow-inputs' }, [
                      h('span', tw('webui-page.workflows.inputs')),
                      h('input', {
                        type: 'text',
                        'data-testid': 'workflow-inputs',
                        value: inputs.value,
                        'aria-invalid': inputsError.value ? 'true' : undefined,
                        onInput: (event: Event) => {
                          inputs.value = (event.target as HTMLInputElement).value;
                        },
                      }),
                    ]),
                    h(
                      'button',
                      {
                        type: 'button',
                        class: 'button primary',
                        'data-testid': 'workflow-run-button',
                        disabled: !state.workflow || state.dirty,
                        onClick: run,
                      },
                      tw('webui-page.workflows.run'),
                    ),
                  ]),
                  inputsError.value
                    ? h('p', { class: 'workflow-error', role: 'alert' }, tw('webui-page.workflows.inputsInvalid'))
                    : null,
                  state.runs.length === 0
                    ? h('p', { class: 'muted' }, tw('webui-page.workflows.runsEmpty'))
                    : h(
                        'div',
                        { class: 'table-scroll' },
                        h('table', { class: 'workflow-run-list', 'data-testid': 'workflow-runs' }, [
                          tableHead(
                            'id',
                            tw('webui-page.workflows.status'),
                            tw('webui-page.workflows.trigger'),
                            tw('webui-page.workflows.started'),
                            tw('webui-page.workflows.duration'),
                            '',
                          ),
                          h('tbody', state.runs.map(runRow)),
                        ]),
                      ),
                  state.run ? runDetail(state.run) : null,
                ]),
              ])
            : null,
        ]),
      ]);
    };
  },
});
