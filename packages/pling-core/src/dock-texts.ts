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
  toolBlocked: (name: string, reason: string) => string;
  retry: (retry: number, delayMs: number) => string;
  compacted: (before: number, after: number) => string;
  trace: (count: number) => string;
  traceCall: (index: number, model: string, messages: number, tools: number) => string;
}

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
    toolBlocked: (name, reason) => `${name} 被拦截：${reason}`,
    retry: (retry, delayMs) => `第 ${retry} 次重试（${delayMs} ms 后）`,
    compacted: (before, after) => `历史已压缩（约 ${before} → ${after} token）`,
    trace: (count) => `请求 trace（最近 ${count} 次）`,
    traceCall: (index, model, messages, tools) => `#${index} ${model}：${messages} 条消息，${tools} 个工具`,
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
    toolBlocked: (name, reason) => `${name} blocked: ${reason}`,
    retry: (retry, delayMs) => `Retry ${retry} (after ${delayMs} ms)`,
    compacted: (before, after) => `History compacted (about ${before} → ${after} tokens)`,
    trace: (count) => `Request trace (last ${count})`,
    traceCall: (index, model, messages, tools) => `#${index} ${model}: ${messages} messages, ${tools} tools`,
  },
};

export function dockTexts(locale: Locale): DockTexts {
  return DOCK_TEXTS[locale] ?? DOCK_TEXTS['zh-CN'];
}
