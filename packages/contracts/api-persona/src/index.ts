// @aalis/api-persona: the persona service contract: personas (id, name, prompt, optional structured output)
// selected per session through the `persona` session setting.
export {
  PERSONA_FIELD_KEY,
  PERSONA_ID_PATTERN,
  PERSONA_LIMITS,
  type Persona,
  type PersonaInput,
} from './persona.js';
export { personaCatalogue } from './persona-catalogue.js';
export { personaErrors } from './persona-errors.js';
export {
  type PersonaReloadReport,
  type PersonaScope,
  type PersonaService,
  persona,
} from './persona-service.js';
