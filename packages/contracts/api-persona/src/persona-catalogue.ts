// Texts of the persona setting field.
import { defineCatalogue } from '@aalis/core';

export const personaCatalogue = defineCatalogue({
  'zh-CN': {
    'persona.field.persona': '人设',
    'persona.field.persona.description': '这个会话用的人设；没设置时用默认人设。',
  },
  en: {
    'persona.field.persona': 'Persona',
    'persona.field.persona.description': 'The persona of this session; the default persona when not set.',
  },
});
