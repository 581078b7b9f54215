// The `extra` JSON of a row with the superseded mark added to its metadata: both engines write the same.
import type { Supersession } from '@aalis/api-memory';
import { WellKnownMetadataKeys } from '@aalis/schema-message';

export function supersededExtra(extra: string | null, supersession: Supersession): string {
  const fields = extra === null ? {} : (JSON.parse(extra) as Record<string, unknown>);
  const metadata = (fields.metadata as Record<string, unknown> | undefined) ?? {};
  fields.metadata = {
    ...metadata,
    [WellKnownMetadataKeys.Superseded]: { id: supersession.id, at: supersession.at, action: supersession.action },
  };
  return JSON.stringify(fields);
}
