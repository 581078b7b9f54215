// @aalis/api-skills: the skills (技能) contract — procedures she saves for reuse, each with the scope it may be
// used in, the `skills` service and its coded errors. Implemented by @aalis/plugin-skills.
export { GLOBAL_SCOPE, type Skill, type SkillHit, type SkillLimits, type SkillScope } from './skill.js';
export { skillsErrors } from './skills-errors.js';
export { type SkillSaveRequest, type SkillsService, skills } from './skills-service.js';
