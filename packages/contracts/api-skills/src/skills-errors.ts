// The coded errors of the skills service: what was wrong and how to fix it.
import { defineErrors } from '@aalis/core';

export const skillsErrors = defineErrors({
  AALIS_SKILLS_NAME_INVALID: {
    en: 'A skill needs a name of 1–{max} characters on one line; received {length} characters.',
    'zh-CN': '技能需要一个 1–{max} 字的单行名字；实际为 {length} 字。',
    statusCode: 400,
  },
  AALIS_SKILLS_TOO_LONG: {
    en: 'The skill "{name}" is {length} characters long; at most {max} are kept. Shorten the steps and save it again.',
    'zh-CN': '技能「{name}」有 {length} 字，最多能存 {max} 字。请精简步骤后再存。',
    statusCode: 400,
  },
  AALIS_SKILLS_EMPTY: {
    en: 'The skill "{name}" has no steps. Write what it is for and its steps, then save it again.',
    'zh-CN': '技能「{name}」没有内容。请写明用途和步骤后再存。',
    statusCode: 400,
  },
  AALIS_SKILLS_FULL: {
    en: '{count} skills are saved already, the most this deployment keeps (plugins.skills.maxSkills). Delete one that is no longer needed, then save again.',
    'zh-CN': '已经存了 {count} 个技能，达到上限（plugins.skills.maxSkills）。请先删掉不再需要的技能再存。',
    statusCode: 409,
  },
  AALIS_SKILLS_NAME_TAKEN: {
    en: 'Another skill in the same place is already named "{name}". Choose another name.',
    'zh-CN': '同一范围里已经有名为「{name}」的技能。请换一个名字。',
    statusCode: 409,
  },
  AALIS_SKILLS_UNKNOWN: {
    en: 'There is no skill with the id "{id}"; it may have been deleted. List the skills again.',
    'zh-CN': '没有 id 为「{id}」的技能，可能已被删除。请重新列出技能。',
    statusCode: 404,
  },
});
