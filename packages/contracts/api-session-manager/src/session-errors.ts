// Coded errors of the session manager. Nothing is written when one is thrown.
import { defineErrors } from '@aalis/core';

export const sessionErrors = defineErrors({
  AALIS_SESSION_INVALID: {
    en: 'Session "{id}": field "{field}" expected {expected}, received {received}.',
    'zh-CN': '会话「{id}」：字段「{field}」应为 {expected}，实际为 {received}。',
  },
  AALIS_SESSION_UNKNOWN: {
    en: 'There is no session "{id}". It may have been deleted; list sessions to find its id.',
    'zh-CN': '没有会话「{id}」。它可能已被删除；请列出会话查看 id。',
  },
  AALIS_SESSION_PARENT_UNKNOWN: {
    en: 'Session "{id}" names the parent "{parentId}", which does not exist. Create the parent first.',
    'zh-CN': '会话「{id}」的父会话「{parentId}」不存在。请先建父会话。',
  },
  AALIS_SESSION_PARENT_MISMATCH: {
    en: 'Session "{id}" is of kind "{kind}": child sessions need a parentId, and only child sessions may have one.',
    'zh-CN': '会话「{id}」的种类是「{kind}」：子会话必须有 parentId，其余种类不能有。',
  },
  AALIS_SESSION_CONFLICT: {
    en: 'Session "{id}" already exists with {field} "{existing}", not "{requested}". Session ids identify one conversation; use another id.',
    'zh-CN':
      '会话「{id}」已存在，它的 {field} 是「{existing}」，不是「{requested}」。会话 id 对应一个对话，请换一个 id。',
  },
});
