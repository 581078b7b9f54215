// Coded errors of the persona service. A broken file is reported with its name, line and column; it is skipped
// while the other personas load, and nothing is written.
import { defineErrors } from '@aalis/core';

export const personaErrors = defineErrors({
  AALIS_PERSONA_INVALID: {
    en: 'Persona file {file}, line {line}, column {column}: {problem}. Fix the file, then run /persona.reload (or restart); the other personas are loaded.',
    'zh-CN':
      '人设文件 {file} 第 {line} 行第 {column} 列：{problem}。请修改这个文件后用 /persona.reload 重新加载（或重启）；其余人设照常可用。',
  },
  AALIS_PERSONA_DUPLICATE: {
    en: 'Persona files {file} and {other} both use the id "{id}"; {file} is ignored. Give each persona its own id.',
    'zh-CN': '人设文件 {file} 与 {other} 的 id 都是「{id}」，已忽略 {file}。请给每个人设各起一个 id。',
  },
  AALIS_PERSONA_UNKNOWN: {
    en: 'There is no persona "{id}". Known personas: {known}. /persona lists them.',
    'zh-CN': '没有人设「{id}」。已有的人设：{known}。用 /persona 查看列表。',
  },
  AALIS_PERSONA_ID_INVALID: {
    en: 'The persona cannot be saved: its id "{id}" must be 1 to 64 of a-z, A-Z, 0-9, "_", "-", ".". Nothing was written.',
    'zh-CN': '人设无法保存：id「{id}」只能用 1 到 64 个 a-z、A-Z、0-9、「_」「-」「.」。没有写入任何内容。',
  },
  AALIS_PERSONA_FIELD_EMPTY: {
    en: 'The persona cannot be saved: {field} must not be empty. Nothing was written.',
    'zh-CN': '人设无法保存：{field} 不能为空。没有写入任何内容。',
  },
  AALIS_PERSONA_FIELD_TOO_LONG: {
    en: 'The persona cannot be saved: {field} is too long (at most {max} characters). Nothing was written.',
    'zh-CN': '人设无法保存：{field} 太长（最多 {max} 个字符）。没有写入任何内容。',
  },
  AALIS_PERSONA_SCHEMA_INVALID: {
    en: 'The persona cannot be saved: structuredOutput must be a JSON Schema object with type: object. Nothing was written.',
    'zh-CN': '人设无法保存：structuredOutput 应为 type 为 object 的 JSON Schema 对象。没有写入任何内容。',
  },
  AALIS_PERSONA_EXISTS: {
    en: 'A persona "{id}" exists already ({file}). Choose another id, or edit that persona.',
    'zh-CN': '人设「{id}」已经存在（{file}）。请换一个 id，或者去编辑那个人设。',
  },
  AALIS_PERSONA_CHANGED: {
    en: 'The persona file {file} changed since it was read (edited by hand or from another page). Nothing was written: reload the persona and make the change again.',
    'zh-CN': '人设文件 {file} 在读取之后被改过（手动修改或另一个页面）。没有写入：请重新载入这个人设后再改一次。',
  },
  AALIS_PERSONA_DEFAULT_KEPT: {
    en: 'Persona "{id}" is the default persona (plugins.persona.defaultPersona) and is not deleted. Choose another default persona first.',
    'zh-CN': '人设「{id}」是默认人设（plugins.persona.defaultPersona），不能删除。请先把默认人设换成别的。',
  },
  AALIS_PERSONA_NOT_SAVED: {
    en: 'The persona file {file} could not be written: {reason}. Nothing changed; check that the personas directory is writable and has space.',
    'zh-CN': '人设文件 {file} 写不进去：{reason}。什么都没有改变；请确认人设目录可写、磁盘有空间。',
  },
  AALIS_PERSONA_DIRECTORY_UNREADABLE: {
    en: 'The personas directory {dir} cannot be read: {reason}. Check that it exists and is readable.',
    'zh-CN': '人设目录 {dir} 无法读取：{reason}。请确认它存在且可读。',
  },
});
