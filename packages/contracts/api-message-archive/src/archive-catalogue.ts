// Every fixed text of archived inputs. Stable byte for byte: providers' prefix caches depend on the archived
// content never changing for the same input, so edit these only with a migration plan.
import { defineCatalogue } from '@aalis/core';

export const archiveCatalogue = defineCatalogue({
  'zh-CN': {
    'messageArchive.time': '[{year}-{month}-{day} {hour}:{minute}]',
    'messageArchive.speaker.named': '{name} ({account})',
    'messageArchive.speaker.foreignAccount': '{platform}:{account}',
    'messageArchive.content.spoken': '{time} {speaker}: {content}',
    'messageArchive.content.unattributed': '{time} {content}',
    'messageArchive.content.hostNotice': '{time} [宿主通知]\n{content}',
  },
  en: {
    'messageArchive.time': '[{year}-{month}-{day} {hour}:{minute}]',
    'messageArchive.speaker.named': '{name} ({account})',
    'messageArchive.speaker.foreignAccount': '{platform}:{account}',
    'messageArchive.content.spoken': '{time} {speaker}: {content}',
    'messageArchive.content.unattributed': '{time} {content}',
    'messageArchive.content.hostNotice': '{time} [Host notice]\n{content}',
  },
});
