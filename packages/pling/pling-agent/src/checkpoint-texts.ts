// The fixed texts of cross-document continuity — what the session reports when it restores, discards or cannot
// save a checkpoint, and the result a tool call gets when the page was left while it ran — in zh-CN and en.
import type { Locale } from './texts.js';

/** Why a checkpoint was not restored, or could not be written. */
export type CheckpointProblem =
  /** Written by another version of Pling: its format is not known here. */
  | 'unknown-version'
  /** Not a checkpoint this version can read (corrupted, or edited by hand). */
  | 'unreadable'
  /** Larger than the size bound even without its event list; the previous page could not carry it over. */
  | 'too-large'
  /** No storage (no sessionStorage here, or it is blocked). */
  | 'storage-unavailable'
  /** The storage refused the write or read (quota exceeded, access denied). */
  | 'storage-error';

export interface ContinuityTexts {
  restored: (messages: number) => string;
  discarded: (problem: CheckpointProblem) => string;
  notSaved: (problem: CheckpointProblem, maxBytes: number) => string;
  /** The tool message of a call that was running when the page was left. */
  interruptedTool: string;
}

const ZH_PROBLEMS: Record<CheckpointProblem, string> = {
  'unknown-version': '检查点由另一个版本的 Pling 写入，格式无法识别',
  unreadable: '检查点内容无法读取（已损坏或被改动）',
  'too-large': '上一页的会话超过了检查点大小上限',
  'storage-unavailable': '当前环境没有可用的存储（sessionStorage 不可用或被禁止）',
  'storage-error': '存储拒绝了读写（可能超出配额或被禁止访问）',
};

const EN_PROBLEMS: Record<CheckpointProblem, string> = {
  'unknown-version': 'the checkpoint was written by another version of Pling and its format is not known',
  unreadable: 'the checkpoint cannot be read (corrupted or edited)',
  'too-large': "the previous page's conversation was larger than the checkpoint size bound",
  'storage-unavailable': 'no storage is available here (sessionStorage is missing or blocked)',
  'storage-error': 'the storage refused to read or write (quota exceeded or access denied)',
};

export const CONTINUITY_TEXTS: Readonly<Record<Locale, ContinuityTexts>> = {
  'zh-CN': {
    restored: (messages) => `已从上一个页面恢复会话（${messages} 条消息）。`,
    discarded: (problem) => `未恢复上一个页面的会话：${ZH_PROBLEMS[problem]}。已从新会话开始。`,
    notSaved: (problem, maxBytes) =>
      problem === 'too-large'
        ? `会话超过检查点上限（${maxBytes} 字节），离开或刷新页面后将无法恢复。可清空会话，或调大 checkpoint.maxBytes。`
        : `无法保存会话检查点：${ZH_PROBLEMS[problem]}。离开或刷新页面后将无法恢复。`,
    interruptedTool: '该动作执行期间页面被离开或刷新，结果未知。请先查看页面的当前状态，再决定是否重新调用。',
  },
  en: {
    restored: (messages) =>
      `Conversation restored from the previous page (${messages} ${messages === 1 ? 'message' : 'messages'}).`,
    discarded: (problem) =>
      `The previous page's conversation was not restored: ${EN_PROBLEMS[problem]}. Starting afresh.`,
    notSaved: (problem, maxBytes) =>
      problem === 'too-large'
        ? `The conversation is larger than the checkpoint bound (${maxBytes} bytes) and will not survive leaving or reloading the page. Clear it, or raise checkpoint.maxBytes.`
        : `The conversation checkpoint could not be saved: ${EN_PROBLEMS[problem]}. It will not survive leaving or reloading the page.`,
    interruptedTool:
      'The page was left or reloaded while this action ran, so its outcome is unknown. Check the current page state before calling it again.',
  },
};

export function continuityTexts(locale: Locale | undefined): ContinuityTexts {
  return (locale && CONTINUITY_TEXTS[locale]) || CONTINUITY_TEXTS['zh-CN'];
}
