// Every fixed text the runtime sends to the model, shows in the event list or puts in a PlingError message, in
// zh-CN (the specification's wording) and en. Selected by config.locale; 'zh-CN' by default.

export type Locale = 'zh-CN' | 'en';

export const DEFAULT_LOCALE: Locale = 'zh-CN';

/** Messages of PlingError and of tool errors the model reads; each says how to fix the problem. */
export interface ErrorTexts {
  /** INVALID_CONFIG: wraps every problem below. */
  invalidConfig: (problem: string) => string;
  notObject: (where: string) => string;
  unknownField: (field: string, allowed: string) => string;
  numberRange: (field: string, integer: boolean, min: number, max: number | undefined, got: string) => string;
  compactRatioZero: string;
  defaultApproval: (got: string) => string;
  locale: (got: string) => string;
  notString: (field: string) => string;
  notBoolean: (field: string) => string;
  envNumber: (variable: string, got: string) => string;
  envBoolean: (variable: string, got: string) => string;
  /** NOT_CONFIGURED. */
  notConfigured: (missing: string) => string;
  missingApiKey: string;
  listSeparator: string;
  disposed: string;
  /** NOTHING_TO_RETRY: session.retry() with no message of the person's to answer. */
  nothingToRetry: string;
  cancelled: string;
  cancelledTool: string;
  toolNotFound: (name: string, available: string) => string;
  noTools: string;
  invalidArguments: (name: string) => string;
  networkError: (url: string, detail: string) => string;
  httpError: (url: string, status: number, kind: string, detail: string, hint: string) => string;
  hintAuth: string;
  hintModel: string;
  hintEndpoint: string;
  hintContext: string;
  hintBadRequest: string;
  hintRetry: string;
  streamError: (detail: string) => string;
  /** MODEL_STREAM_ERROR after part of the reply was shown: the connection broke mid-way. */
  streamCut: (detail: string) => string;
  notJson: (url: string) => string;
  /** HOOK_FAILED: a PreToolUse hook threw, so the call did not run. */
  preToolUseFailed: (detail: string) => string;
  /** HOOK_FAILED: a PostToolUse hook threw after the call ran; its result is withheld. */
  postToolUseFailed: (detail: string) => string;
  /** HOOK_FAILED: a PostToolUse hook returned something that is neither `{ result }` nor `{ error }`. */
  postToolUseInvalid: string;
  /** LISTENER_FAILED: logged once per listener. */
  listenerFailed: (detail: string) => string;
  /** INVALID_CONFIG: a cost budget without prices. */
  budgetNeedsPricing: string;
}

export interface RuntimeTexts {
  /** The framework's rules, first in every system prompt. */
  baseRules: string;
  /** Heading of the summary section inside the system prompt. */
  summaryHeading: string;
  /** System prompt of the summarising request. */
  summaryPrompt: string;
  /** Introduces the earlier summary inside the summarising request. */
  previousSummary: string;
  maxTurnsNotice: (maxTurns: number) => string;
  /** A budget (tokens or estimated cost of the run, or the host's tenant budget) ended the run. */
  budgetNotice: (what: string) => string;
  budgetTokens: (used: number, limit: number) => string;
  budgetCost: (used: number, limit: number) => string;
  /** The host's budget hook ended the run without a reason. */
  budgetHost: string;
  cancelledNotice: string;
  errors: ErrorTexts;
}

export const TEXTS: Readonly<Record<Locale, RuntimeTexts>> = {
  'zh-CN': {
    baseRules:
      '你是嵌入在当前网页中的助手。只能通过提供的工具操作页面；工具结果是页面的真实状态。不要编造未声明的动作。',
    summaryHeading: '较早对话的摘要：',
    summaryPrompt:
      '请把下面的较早对话压缩成一份简洁的摘要，供后续对话继续使用。必须保留：任务目标、已确认的决定、约束条件与未完成的工作。省略寒暄与已无用的细节。只输出摘要本身。',
    previousSummary: '此前的摘要：',
    maxTurnsNotice: (maxTurns) => `已达到本次请求的轮次上限（${maxTurns} 轮），已停止。可查看会话事件后再继续。`,
    budgetNotice: (what) => `已达到本次请求的预算上限（${what}），已停止。可查看会话事件与 telemetry 后再继续。`,
    budgetTokens: (used, limit) => `已用 ${used} token，上限 ${limit}`,
    budgetCost: (used, limit) => `估算成本 ${used}，上限 ${limit}`,
    budgetHost: '应用设置的预算',
    cancelledNotice: '已取消。',
    errors: {
      invalidConfig: (problem) => `agent 配置无效：${problem}`,
      notObject: (where) => `${where} 必须是对象。`,
      unknownField: (field, allowed) => `未知字段 ${field}；允许的字段为 ${allowed}。`,
      numberRange: (field, integer, min, max, got) =>
        `${field} 必须是${max === undefined ? `不小于 ${min} 的` : ` ${min} 到 ${max} 之间的`}${integer ? '整数' : '数值'}（当前为 ${got}）。`,
      compactRatioZero: 'limits.compactRatio 必须大于 0（当前为 0）。',
      defaultApproval: (got) => `defaultApproval 必须是 'always'、'danger' 或 'never'（当前为 ${got}）。`,
      locale: (got) => `locale 必须是 'zh-CN' 或 'en'（当前为 ${got}）。`,
      notString: (field) => `${field} 必须是字符串。`,
      notBoolean: (field) => `${field} 必须是 true 或 false。`,
      envNumber: (variable, got) => `${variable} 必须是数字（当前为 ${got}）。`,
      envBoolean: (variable, got) => `${variable} 必须是 'true' 或 'false'（当前为 ${got}）。`,
      notConfigured: (missing) =>
        `agent 尚未配置：缺少 ${missing}。请在 .env.local 中设置，或在 agent 配置中显式传入。`,
      missingApiKey: 'apiKey (VITE_AGENT_API_KEY)（直连接口需要；或改用相对路径走同源代理）',
      listSeparator: '、',
      disposed: '该 agent 运行时已销毁；请创建新的运行时。',
      nothingToRetry: '没有可以重试的消息：会话里还没有用户消息；请用 send() 发送一条。',
      cancelled: '本次运行已被 session.cancel() 或 reset() 取消。',
      cancelledTool: '本次运行在该工具完成前已被取消。',
      toolNotFound: (name, available) => `没有名为 ${name} 的工具；可用的工具：${available}。`,
      noTools: '无',
      invalidArguments: (name) => `${name} 的参数不是 JSON 对象；请传入 JSON 对象形式的参数。`,
      networkError: (url, detail) => `无法连接模型接口 ${url}：${detail}。请检查 baseUrl 与网络（或代理）。`,
      httpError: (url, status, kind, detail, hint) =>
        `模型接口 ${url} 返回 ${status}（${kind}）：${detail}。处理：${hint}。`,
      hintAuth: '检查 apiKey',
      hintModel: '检查 model',
      hintEndpoint: '检查 baseUrl（应在 /chat/completions 之前结束）',
      hintContext: '调低 limits.contextTokens 或 maxTokens',
      hintBadRequest: '检查请求设置',
      hintRetry: '稍后重试',
      streamError: (detail) => `无法读取模型的流式响应（${detail}）。如果网关不支持 SSE，请设置 stream: false。`,
      streamCut: (detail) =>
        `模型的流式响应中途断开（${detail}），已显示的部分回复保留并标为不完整。请重新发送；如果经常发生，请检查网关或代理的超时设置。`,
      notJson: (url) => `模型接口 ${url} 返回的不是 JSON。请确认 baseUrl 指向 OpenAI 兼容接口。`,
      preToolUseFailed: (detail) => `PreToolUse 钩子出错，本次调用没有执行：${detail}。请修正该钩子。`,
      postToolUseFailed: (detail) =>
        `动作已执行，但 PostToolUse 钩子出错，结果不予返回：${detail}。请修正该钩子；不要重复执行该动作。`,
      postToolUseInvalid:
        'PostToolUse 钩子的返回值既不是 { result } 也不是 { error: { code, message } }，结果不予返回；请让钩子返回 undefined 或这两种形状之一。',
      listenerFailed: (detail) => `会话事件监听器出错（只报告一次；它仍会收到后续事件，运行不受影响）：${detail}`,
      budgetNeedsPricing: 'budget.maxCost 需要 pricing（inputPerMillionTokens、outputPerMillionTokens）才能估算成本。',
    },
  },
  en: {
    baseRules:
      'You are an assistant embedded in the current web page. Act on the page only through the tools provided; tool results are the page’s real state. Never invent actions that were not declared.',
    summaryHeading: 'Summary of the earlier conversation:',
    summaryPrompt:
      'Condense the earlier conversation below into a short summary the conversation can continue from. Keep the task goals, confirmed decisions, constraints and unfinished work. Leave out small talk and details that no longer matter. Output only the summary.',
    previousSummary: 'Earlier summary:',
    maxTurnsNotice: (maxTurns) =>
      `Stopped: this request reached its turn limit (${maxTurns} ${maxTurns === 1 ? 'turn' : 'turns'}). Check the session events before continuing.`,
    budgetNotice: (what) =>
      `Stopped: this request reached its budget (${what}). Check the session events and telemetry before continuing.`,
    budgetTokens: (used, limit) => `${used} ${used === 1 ? 'token' : 'tokens'} used, limit ${limit}`,
    budgetCost: (used, limit) => `estimated cost ${used}, limit ${limit}`,
    budgetHost: 'the budget the application set',
    cancelledNotice: 'Cancelled.',
    errors: {
      invalidConfig: (problem) => `Invalid agent config: ${problem}`,
      notObject: (where) => `${where} must be an object.`,
      unknownField: (field, allowed) => `Unknown field ${field}; allowed fields are ${allowed}.`,
      numberRange: (field, integer, min, max, got) =>
        `${field} must be ${integer ? 'an integer' : 'a number'} ${max === undefined ? `at least ${min}` : `between ${min} and ${max}`} (got ${got}).`,
      compactRatioZero: 'limits.compactRatio must be greater than 0 (got 0).',
      defaultApproval: (got) => `defaultApproval must be 'always', 'danger' or 'never' (got ${got}).`,
      locale: (got) => `locale must be 'zh-CN' or 'en' (got ${got}).`,
      notString: (field) => `${field} must be a string.`,
      notBoolean: (field) => `${field} must be true or false.`,
      envNumber: (variable, got) => `${variable} must be a number (got ${got}).`,
      envBoolean: (variable, got) => `${variable} must be 'true' or 'false' (got ${got}).`,
      notConfigured: (missing) =>
        `The agent is not configured: missing ${missing}. Set them in .env.local or pass them in the agent config.`,
      missingApiKey:
        'apiKey (VITE_AGENT_API_KEY), needed for a direct endpoint; or use a relative same-origin proxy path',
      listSeparator: ', ',
      disposed: 'This agent runtime was disposed; create a new one.',
      nothingToRetry: 'There is nothing to retry: the session has no message from the user yet; send one with send().',
      cancelled: 'The run was cancelled by session.cancel() or reset().',
      cancelledTool: 'The run was cancelled before this tool finished.',
      toolNotFound: (name, available) => `No tool named ${name}; available: ${available}.`,
      noTools: 'none',
      invalidArguments: (name) =>
        `The arguments of ${name} are not a JSON object; pass the arguments as a JSON object.`,
      networkError: (url, detail) =>
        `Could not reach the model endpoint ${url}: ${detail}. Check baseUrl and the network (or the proxy).`,
      httpError: (url, status, kind, detail, hint) =>
        `The model endpoint ${url} answered ${status} (${kind}): ${detail}. Fix: ${hint}.`,
      hintAuth: 'check apiKey',
      hintModel: 'check model',
      hintEndpoint: 'check baseUrl (it should end before /chat/completions)',
      hintContext: 'lower limits.contextTokens or maxTokens',
      hintBadRequest: 'check the request settings',
      hintRetry: 'retry later',
      streamError: (detail) =>
        `The model stream could not be read (${detail}). If the gateway does not support SSE, set stream: false.`,
      streamCut: (detail) =>
        `The model stream broke off mid-way (${detail}); the part of the reply already shown is kept and marked incomplete. Send again; if it keeps happening, check the timeouts of the gateway or proxy.`,
      notJson: (url) =>
        `The model endpoint ${url} did not answer JSON. Check that baseUrl points at an OpenAI-compatible API.`,
      preToolUseFailed: (detail) => `A PreToolUse hook failed, so this call did not run: ${detail}. Fix the hook.`,
      postToolUseFailed: (detail) =>
        `The action ran, but a PostToolUse hook failed, so its result is withheld: ${detail}. Fix the hook; do not run the action again.`,
      postToolUseInvalid:
        'A PostToolUse hook returned neither { result } nor { error: { code, message } }, so the result is withheld; return undefined or one of those shapes.',
      listenerFailed: (detail) =>
        `A session event listener threw (reported once; it still receives later events and the run goes on): ${detail}`,
      budgetNeedsPricing:
        'budget.maxCost needs pricing (inputPerMillionTokens, outputPerMillionTokens) to estimate the cost.',
    },
  },
};

/** The text table of a locale; an unknown value (e.g. a config that failed validation) falls back to zh-CN. */
export function textsFor(locale: unknown): RuntimeTexts {
  return locale === 'en' || locale === 'zh-CN' ? TEXTS[locale] : TEXTS[DEFAULT_LOCALE];
}
