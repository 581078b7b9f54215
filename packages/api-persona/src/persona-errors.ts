// Coded errors of the persona service. A broken file is reported with its name, line and column; it is skipped
// while the other personas load, and nothing is written.
import { defineErrors } from '@aalis/core';

export const personaErrors = defineErrors({
  AALIS_PERSONA_INVALID: {
    en: 'Persona file {file}, line {line}, column {column}: {problem}. Fix the file, then run /persona.reload (or restart); the other personas are loaded.',
    'zh-CN':
      '人设文件 {file} 第 {line} 行第 {column} 列:{problem}。请修改这个文件后用 /persona.reload 重新加载(或重启);其余人设照常可用。',
  },
  AALIS_PERSONA_DUPLICATE: {
    en: 'Persona files {file} and {other} both use the id "{id}"; {file} is ignored. Give each persona its own id.',
    'zh-CN': '人设文件 {file} 与 {other} 的 id 都是「{id}」,已忽略 {file}。请给每个人设各起一个 id。',
  },
  AALIS_PERSONA_UNKNOWN: {
    en: 'There is no persona "{id}". Known personas: {known}. /persona lists them.',
    'zh-CN': '没有人设「{id}」。已有的人设:{known}。用 /persona 查看列表。',
  },
  AALIS_PERSONA_DIRECTORY_UNREADABLE: {
    en: 'The personas directory {dir} cannot be read: {reason}. Check that it exists and is readable.',
    'zh-CN': '人设目录 {dir} 无法读取:{reason}。请确认它存在且可读。',
  },
});
