// Every fixed text the page layer shows the model or the page author — the snapshot headings, the built-in
// handoff action, and PageError messages (each saying how to fix the problem) — in zh-CN and en. Selected by the
// agent config's `locale` (toRuntimeOptions) or createPage({ locale }); 'zh-CN' by default, as in @plingjs/agent.
import { DEFAULT_LOCALE, type Locale } from '@plingjs/agent';

export interface PageTexts {
  snapshot: {
    heading: (title: string | undefined) => string;
    state: string;
    actions: string;
    none: string;
    /** A state getter that threw (its message is never shown). */
    unavailable: string;
    danger: string;
  };
  handoff: {
    description: string;
    reason: string;
    context: string;
  };
  errors: {
    invalidActionId: (id: string, suggestion: string | undefined) => string;
    actionNeedsDescription: (id: string) => string;
    actionNeedsParameters: (id: string) => string;
    actionNeedsHandler: (id: string) => string;
    actionBadConfirm: (id: string, confirm: string) => string;
    actionBadDanger: (id: string) => string;
    duplicateAction: (id: string) => string;
    handoffCollision: (id: string) => string;
    /**
     * RUNTIME_ALREADY_STARTED: a dock's `config` would change `fields` of a runtime something else started first
     * (a session hook, pling.session(), another dock).
     */
    runtimeAlreadyStarted: (fields: string) => string;
    /** createPling: a dock's `config` tries to change `locale`. */
    dockLocaleFixed: string;
    /** React: a hook or AgentDock outside <PlingProvider>. */
    notProvidedReact: string;
    /** Vue: no explicit or installed Pling instance. */
    notProvidedVue: string;
    /** Vue: a registering composable outside setup() / effectScope(). */
    noActiveScope: (composable: string, alternative: string) => string;
    actionUnavailable: (id: string) => string;
    /** `described`: the violations as @aalis/schema-message's describeViolations lists them, in the same locale. */
    invalidArguments: (id: string, described: string) => string;
    invalidStateName: (name: string) => string;
    duplicateState: (name: string) => string;
    invalidSensitiveLabel: (label: string) => string;
    sensitiveAmbiguous: (marker: string) => string;
    confirmationRejected: (id: string, reason: string | undefined) => string;
    invalidHandoff: string;
  };
}

export const PAGE_TEXTS: Readonly<Record<Locale, PageTexts>> = {
  'zh-CN': {
    snapshot: {
      heading: (title) => `# 当前页面${title ? `：${title}` : ''}`,
      state: '## 状态',
      actions: '## 动作',
      none: '（无）',
      unavailable: '[不可用]',
      danger: '（危险）',
    },
    handoff: {
      description: '当你无法或不应自行完成任务时，请人工接手。之后告知用户并停止。',
      reason: '需要人工接手的内容及原因。',
      context: '有助于处理人员的事实（可选）。',
    },
    errors: {
      invalidActionId: (id, suggestion) =>
        `动作 id ${id} 不是有效的工具名；请使用 1–64 个字母、数字、'_' 或 '-'${suggestion ? `（例如 ${suggestion}）` : ''}。`,
      actionNeedsDescription: (id) => `动作 ${id} 需要 description：模型依据它选择动作。`,
      actionNeedsParameters: (id) =>
        `动作 ${id} 的 parameters 需要是 JSON Schema 对象，例如 { type: 'object', properties: {} }。`,
      actionNeedsHandler: (id) => `动作 ${id} 需要一个 handler 函数。`,
      actionBadConfirm: (id, confirm) =>
        `动作 ${id} 的 confirm 为 ${confirm}；请使用 'always'、'never'、'danger' 或函数。`,
      actionBadDanger: (id) => `动作 ${id} 的 danger 标记不是布尔值；请使用 true 或 false。`,
      duplicateAction: (id) => `动作 ${id} 已声明；请先调用它的移除函数，或换一个 id。`,
      handoffCollision: (id) => `页面声明了动作 ${id}，与内置动作 id 相同；请重命名，或传入 handoffAction: false。`,
      runtimeAlreadyStarted: (fields) =>
        `运行时已经启动（由 pling.session()、useAgentSession()、pling.runtime() 或另一个 Dock 先启动），配置只解析一次，这个 Dock 的 config 无法再改变 ${fields}。请把这些设置移到 createPling({ agent: { config } })，或让这个 Dock 先于启动运行时的代码挂载。`,
      dockLocaleFixed: 'Dock 的 config 不能改 locale；请在 createPling({ agent: { config } }) 或环境变量里设。',
      notProvidedReact:
        'usePling()、Pling 的 hooks 与 <AgentDock> 必须渲染在 <PlingProvider pling={createPling(…)}> 之内；请用它包住用到它们的那部分应用。',
      notProvidedVue:
        '这里没有 Pling 实例。请用 app.use(pling) 安装（pling = createPling(...)），或显式传入（<AgentDock :pling="pling">、useAction(definition, pling)）；inject() 只在 setup() 里有效。',
      noActiveScope: (composable, alternative) =>
        `${composable}() 必须在 setup() 或 effectScope().run() 里调用，它们结束时会撤销它；在此之外请用 ${alternative}。`,
      actionUnavailable: (id) => `当前页面没有 ${id} 动作；请使用页面现在列出的动作。`,
      invalidArguments: (id, described) =>
        `动作 ${id} 的参数不符合它的 JSON Schema，动作没有执行；请按 schema 修正参数后重新调用：\n${described}`,
      invalidStateName: (name) => `状态名 ${name} 必须是单行的 1–100 个字符，且不能以空格开头。`,
      duplicateState: (name) => `状态 ${name} 已注册；请先调用它的移除函数。`,
      invalidSensitiveLabel: (label) => `标签 ${label} 不能放进脱敏标记；请使用 1–64 个字母、数字、'_'、'.' 或 '-'。`,
      sensitiveAmbiguous: (marker) => `页面上有多个不同的值都标记为 ${marker}；请为每个 sensitive() 值使用各自的标签。`,
      confirmationRejected: (id, reason) =>
        `用户未批准 ${id}${reason ? `：${reason}` : ''}。除非用户要求，否则不要重试。`,
      invalidHandoff: '人工接力需要 reason：说明需要人工接手的内容。',
    },
  },
  en: {
    snapshot: {
      heading: (title) => `# Current page${title ? `: ${title}` : ''}`,
      state: '## State',
      actions: '## Actions',
      none: '(none)',
      unavailable: '[unavailable]',
      danger: ' (danger)',
    },
    handoff: {
      description:
        'Ask a person to take over when you cannot or must not finish the task yourself. Afterwards tell the user and stop.',
      reason: 'What the person should take over, and why.',
      context: 'Facts that help the person (optional).',
    },
    errors: {
      invalidActionId: (id, suggestion) =>
        `The action id ${id} is not a valid tool name; use 1–64 letters, digits, '_' or '-'${suggestion ? ` (e.g. ${suggestion})` : ''}.`,
      actionNeedsDescription: (id) => `The action ${id} needs a description: the model chooses actions by it.`,
      actionNeedsParameters: (id) =>
        `The action ${id} needs parameters as a JSON Schema object, e.g. { type: 'object', properties: {} }.`,
      actionNeedsHandler: (id) => `The action ${id} needs a handler function.`,
      actionBadConfirm: (id, confirm) =>
        `The action ${id} has confirm ${confirm}; use 'always', 'never', 'danger' or a function.`,
      actionBadDanger: (id) => `The action ${id} has a non-boolean danger flag; use true or false.`,
      duplicateAction: (id) => `An action ${id} is declared already; call its remover first or choose another id.`,
      handoffCollision: (id) =>
        `The page declares an action ${id}, the built-in's id; rename it or pass handoffAction: false.`,
      runtimeAlreadyStarted: (fields) =>
        `the runtime was already started (by pling.session(), useAgentSession(), pling.runtime() or another dock) and resolves its configuration once, so this dock's \`config\` cannot change ${fields}. Move these settings to createPling({ agent: { config } }), or mount this dock before whatever starts the runtime.`,
      dockLocaleFixed:
        'a dock `config` cannot change `locale`; set it in createPling({ agent: { config } }) or the environment.',
      notProvidedReact:
        'usePling(), the Pling hooks and <AgentDock> must be rendered inside <PlingProvider pling={createPling(…)}>. Wrap the part of the app that uses them in the provider.',
      notProvidedVue:
        'no Pling instance here. Install it with `app.use(pling)` (pling = createPling(...)), or pass it explicitly (`<AgentDock :pling="pling">`, `useAction(definition, pling)`); inject() only works inside setup().',
      noActiveScope: (composable, alternative) =>
        `${composable}() must run inside setup() or effectScope().run(), which undo it when they end; outside one, use ${alternative}.`,
      actionUnavailable: (id) => `${id} is not available on the current page; use the actions the page lists now.`,
      invalidArguments: (id, described) =>
        `The arguments of ${id} do not match its JSON Schema, so it did not run; call it again with arguments that match the schema:\n${described}`,
      invalidStateName: (name) =>
        `The state name ${name} must be 1–100 characters on one line, not starting with a space.`,
      duplicateState: (name) => `State ${name} is registered already; call its remover first.`,
      invalidSensitiveLabel: (label) =>
        `The label ${label} cannot go into a redaction marker; use 1–64 letters, digits, '_', '.' or '-'.`,
      sensitiveAmbiguous: (marker) =>
        `The page shows different values labelled ${marker}; give each sensitive() value its own label.`,
      confirmationRejected: (id, reason) =>
        `The user did not approve ${id}${reason ? `: ${reason}.` : '.'} Do not retry it unless the user asks.`,
      invalidHandoff: 'A handoff needs a reason: say what the person should take over.',
    },
  },
};

/** The text table of a locale; anything else falls back to zh-CN. */
export function pageTexts(locale: Locale | undefined): PageTexts {
  return locale === 'en' || locale === 'zh-CN' ? PAGE_TEXTS[locale] : PAGE_TEXTS[DEFAULT_LOCALE];
}
