// Conversion between rows of the sessions table and SessionInfo.
import type { LastTurn, SessionInfo, SessionKind } from '@aalis/api-session-manager';

export interface SessionRow {
  id: string;
  kind: string;
  platform: string;
  venue: string | null;
  parent_id: string | null;
  origin_platform: string | null;
  origin_multi_party: number | null;
  title: string | null;
  created_at: number;
  updated_at: number;
  last_turn: string | null;
  pinned_at: number | null;
  archived_at: number | null;
}

export function fromRow(row: SessionRow): SessionInfo {
  const info: SessionInfo = {
    id: row.id,
    kind: row.kind as SessionKind,
    platform: row.platform,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
  if (row.venue !== null) info.venue = row.venue;
  if (row.parent_id !== null) info.parentId = row.parent_id;
  if (row.origin_platform !== null) info.originPlatform = row.origin_platform;
  if (row.origin_multi_party !== null) info.originChat = { multiParty: row.origin_multi_party === 1 };
  if (row.title !== null) info.title = row.title;
  if (row.last_turn !== null) info.lastTurn = JSON.parse(row.last_turn) as LastTurn;
  // BIGINT columns may come back as strings (PostgreSQL).
  if (row.pinned_at !== null && row.pinned_at !== undefined) info.pinnedAt = Number(row.pinned_at);
  if (row.archived_at !== null && row.archived_at !== undefined) info.archivedAt = Number(row.archived_at);
  return info;
}

export function toRow(info: SessionInfo): SessionRow {
  return {
    id: info.id,
    kind: info.kind,
    platform: info.platform,
    venue: info.venue ?? null,
    parent_id: info.parentId ?? null,
    origin_platform: info.originPlatform ?? null,
    origin_multi_party: info.originChat === undefined ? null : info.originChat.multiParty ? 1 : 0,
    title: info.title ?? null,
    created_at: info.createdAt,
    updated_at: info.updatedAt,
    last_turn: info.lastTurn === undefined ? null : JSON.stringify(info.lastTurn),
    pinned_at: info.pinnedAt ?? null,
    archived_at: info.archivedAt ?? null,
  };
}
