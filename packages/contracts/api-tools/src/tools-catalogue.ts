// Model- and user-visible texts of the tools contract: schema violation messages and the enabledToolGroups field.
// The violation texts are @aalis/schema-message's table (shared with Pling), registered here as `tools.schema.*`.
import { defineCatalogue, type Locale } from '@aalis/core';
import { SCHEMA_VIOLATION_TEXTS } from '@aalis/schema-message';

function schemaTexts(locale: Locale): Record<string, string> {
  return Object.fromEntries(
    Object.entries(SCHEMA_VIOLATION_TEXTS[locale]).map(([keyword, text]) => [`tools.schema.${keyword}`, text]),
  );
}

export const toolsCatalogue = defineCatalogue({
  'zh-CN': {
    ...schemaTexts('zh-CN'),
    'tools.field.enabledToolGroups': '工具分组',
    'tools.field.enabledToolGroups.description':
      '这个会话可用的工具分组。「*」为全部分组，空列表为一个都不用；没有分组的通用工具总是可用。',
    'tools.field.enabledToolGroups.expected':
      '「*」（全部分组）或由 a-z、A-Z、0-9、「_」「-」「.」「：」组成的分组名列表',
  },
  en: {
    ...schemaTexts('en'),
    'tools.field.enabledToolGroups': 'Tool groups',
    'tools.field.enabledToolGroups.description':
      'Tool groups this session may use. "*" means every group, an empty list none; tools without a group are always available.',
    'tools.field.enabledToolGroups.expected':
      '"*" (every group) or a list of group names made of a-z, A-Z, 0-9, "_", "-", "." and ":"',
  },
});
