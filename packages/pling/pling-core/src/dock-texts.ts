// The texts every AgentDock shows, in zh-CN and en (the adapters render them; none of them keeps its own).

import type { Locale } from '@plingjs/agent';

export interface DockTexts {
  title: string;
  placeholder: string;
  send: string;
  stop: string;
  clear: string;
  approve: string;
  reject: string;
  resolveHandoff: string;
  recentOperations: string;
  noOperations: string;
  empty: string;
  you: string;
  assistant: string;
  confirm: (action: string) => string;
  dangerMark: string;
  handoff: (reason: string) => string;
  notConfigured: string;
  toolRunning: (name: string) => string;
  toolDone: (name: string) => string;
  toolFailed: (name: string, code: string) => string;
  /** A call the run was stopped before it finished (Stop, clear). */
  toolCancelled: (name: string) => string;
  toolBlocked: (name: string, reason: string) => string;
  retry: (retry: number, delayMs: number) => string;
  compacted: (before: number, after: number) => string;
  trace: (count: number) => string;
  traceCall: (index: number, model: string, messages: number, tools: number) => string;
  /** The launcher's label (the closed dock). */
  open: string;
  /** The header's close button: its text and its accessible name. */
  close: string;
  closeLabel: string;
  /** Shown from the moment a message is sent until the first token (and between tool calls and the next reply). */
  thinking: string;
  /** Marks a reply whose stream broke off (MODEL_STREAM_ERROR): the text shown so far is kept. */
  interrupted: string;
  /** A recent operation waiting for the person's confirmation (not "Running"). */
  toolWaiting: (name: string) => string;
  /** A call the person declined at the confirmation card. */
  toolDeclined: (name: string) => string;
  /** Read out by screen readers when a confirmation appears. */
  confirmAnnouncement: (action: string, danger: boolean) => string;
  /** The retry button after an error. */
  retryButton: string;
  /** The summary of the disclosure that holds an error's code and technical message. */
  errorDetails: string;
  /** What the person using the page is told for a run that ended with an error `code`. */
  errorSummary: (code: string) => string;
  /** What the person is told while the assistant is not configured (the technical message is behind a disclosure). */
  notConfiguredHint: string;
}

type ErrorSummaries = Record<string, string> & { default: string };

const ZH_ERRORS: ErrorSummaries = {
  NETWORK_ERROR: '连不上助手服务。请检查网络连接，然后重试。',
  MODEL_REQUEST_FAILED: '助手这次没能回答。请稍后重试。',
  MODEL_STREAM_ERROR: '回复中途断开了，已收到的部分保留在上面。可以重试。',
  NOT_CONFIGURED: '助手还没配置好，暂时不能回答。请联系网站管理员。',
  INVALID_CONFIG: '助手的配置有误，暂时不能回答。请联系网站管理员。',
  DISPOSED: '助手已关闭。请刷新页面后再试。',
  default: '出了点问题，助手没能完成这次请求。可以重试。',
};

const EN_ERRORS: ErrorSummaries = {
  NETWORK_ERROR: 'Couldn’t reach the assistant. Check your connection and try again.',
  MODEL_REQUEST_FAILED: 'The assistant couldn’t answer this time. Please try again in a moment.',
  MODEL_STREAM_ERROR: 'The reply was cut off; what arrived is kept above. You can try again.',
  NOT_CONFIGURED: 'The assistant isn’t set up yet, so it can’t answer. Please contact the site’s administrator.',
  INVALID_CONFIG: 'The assistant is set up wrongly, so it can’t answer. Please contact the site’s administrator.',
  DISPOSED: 'The assistant was closed. Reload the page and try again.',
  default: 'Something went wrong and the assistant couldn’t finish. You can try again.',
};

export const DOCK_TEXTS: Record<Locale, DockTexts> = {
  'zh-CN': {
    title: '助手',
    placeholder: '输入消息，回车发送',
    send: '发送',
    stop: '停止',
    clear: '清空',
    approve: '确认执行',
    reject: '拒绝',
    resolveHandoff: '已处理',
    recentOperations: '最近操作',
    noOperations: '还没有操作',
    empty: '有什么可以帮你？',
    you: '你',
    assistant: '助手',
    confirm: (action) => `需要确认：${action}`,
    dangerMark: '（危险）',
    handoff: (reason) => `需要人工接力：${reason}`,
    notConfigured: '助手还没配置好',
    toolRunning: (name) => `正在执行 ${name}`,
    toolDone: (name) => `${name} 已完成`,
    toolFailed: (name, code) => `${name} 失败（${code}）`,
    toolCancelled: (name) => `${name} 已取消`,
    toolBlocked: (name, reason) => `${name} 被拦截：${reason}`,
    retry: (retry, delayMs) => `第 ${retry} 次重试（${delayMs} ms 后）`,
    compacted: (before, after) => `历史已压缩（约 ${before} → ${after} token）`,
    trace: (count) => `请求 trace（最近 ${count} 次）`,
    traceCall: (index, model, messages, tools) => `#${index} ${model}：${messages} 条消息，${tools} 个工具`,
    open: '打开助手',
    close: '收起',
    closeLabel: '收起助手',
    thinking: '正在思考…',
    interrupted: '（回复中断，未完成）',
    toolWaiting: (name) => `等待你确认：${name}`,
    toolDeclined: (name) => `你拒绝了：${name}`,
    confirmAnnouncement: (action, danger) => `需要你确认${danger ? '危险操作' : '操作'}：${action}`,
    retryButton: '重试',
    errorDetails: '技术细节（给开发者）',
    errorSummary: (code) => ZH_ERRORS[code] ?? ZH_ERRORS.default,
    notConfiguredHint: '暂时不能回答。请联系网站管理员。',
  },
  en: {
    title: 'Assistant',
    placeholder: 'Type a message, Enter to send',
    send: 'Send',
    stop: 'Stop',
    clear: 'Clear',
    approve: 'Approve',
    reject: 'Reject',
    resolveHandoff: 'Done',
    recentOperations: 'Recent operations',
    noOperations: 'No operations yet',
    empty: 'How can I help?',
    you: 'You',
    assistant: 'Assistant',
    confirm: (action) => `Needs your confirmation: ${action}`,
    dangerMark: ' (danger)',
    handoff: (reason) => `A person is needed: ${reason}`,
    notConfigured: 'The assistant is not configured yet',
    toolRunning: (name) => `Running ${name}`,
    toolDone: (name) => `${name} done`,
    toolFailed: (name, code) => `${name} failed (${code})`,
    toolCancelled: (name) => `${name} cancelled`,
    toolBlocked: (name, reason) => `${name} blocked: ${reason}`,
    retry: (retry, delayMs) => `Retry ${retry} (after ${delayMs} ms)`,
    compacted: (before, after) => `History compacted (about ${before} → ${after} ${after === 1 ? 'token' : 'tokens'})`,
    trace: (count) => `Request trace (last ${count})`,
    traceCall: (index, model, messages, tools) =>
      `#${index} ${model}: ${messages} ${messages === 1 ? 'message' : 'messages'}, ${tools} ${tools === 1 ? 'tool' : 'tools'}`,
    open: 'Open the assistant',
    close: 'Close',
    closeLabel: 'Close the assistant',
    thinking: 'Thinking…',
    interrupted: '(reply interrupted, incomplete)',
    toolWaiting: (name) => `Waiting for your confirmation: ${name}`,
    toolDeclined: (name) => `You declined: ${name}`,
    confirmAnnouncement: (action, danger) =>
      `Your confirmation is needed${danger ? ' (dangerous action)' : ''}: ${action}`,
    retryButton: 'Try again',
    errorDetails: 'Technical details (for developers)',
    errorSummary: (code) => EN_ERRORS[code] ?? EN_ERRORS.default,
    notConfiguredHint: 'It can’t answer yet. Please contact the site’s administrator.',
  },
};

export function dockTexts(locale: Locale): DockTexts {
  return DOCK_TEXTS[locale] ?? DOCK_TEXTS['zh-CN'];
}
