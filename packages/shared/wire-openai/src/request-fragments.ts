// The JSON of a request's parts that repeat from call to call, kept so a call encodes only what is new: each history
// message's JSON (per message object, only for messages that cannot change: frozen, as the agent's history holds them)
// and each tool definition's UTF-8 JSON (per registered `parameters` object, checked against a snapshot of it on every
// use, since registries hand out the same unfrozen schema object each call). Each fragment is exactly JSON.stringify of
// the wire form (docs/decisions/turn-cost.md "Fifth pass").
import type { Message } from '@aalis/schema-message';
import { toWireTool, type WireToolDefinition } from './build-chat-request.js';
import { type ToWireMessagesOptions, toWireMessage } from './to-wire-messages.js';

const utf8 = new TextEncoder();

// Two maps, as a message's JSON depends on whether its reasoning is sent (nothing else, without attachments).
const withReasoning = new WeakMap<Message, string>();
const withoutReasoning = new WeakMap<Message, string>();

/**
 * A message's wire JSON, or undefined for a control message (not sent). Equal to JSON.stringify(toWireMessage(…)).
 * Kept only for a message whose every field the wire form reads is frozen and that has no attachments (their text
 * comes from the caller's describeAttachment); any other message is encoded on every call.
 */
export function wireMessageJson(
  message: Message,
  options: Omit<ToWireMessagesOptions, 'messages'> & { includeReasoning: boolean },
): string | undefined {
  if (!isUnchangeable(message)) {
    const wire = toWireMessage(message, options);
    return wire === undefined ? undefined : JSON.stringify(wire);
  }
  const cache = options.includeReasoning ? withReasoning : withoutReasoning;
  const cached = cache.get(message);
  if (cached !== undefined) return cached;
  const wire = toWireMessage(message, options);
  if (wire === undefined) return undefined; // a control message: cheap to tell apart again
  const json = JSON.stringify(wire);
  cache.set(message, json);
  return json;
}

/** Frozen where the wire form reads it (what context-budget's freezeMessage does), with no attachments. */
function isUnchangeable(message: Message): boolean {
  if (!Object.isFrozen(message)) return false;
  const { attachments, toolCalls } = message;
  if (attachments !== undefined && !(attachments.length === 0 && Object.isFrozen(attachments))) return false;
  if (toolCalls === undefined) return true;
  if (!Object.isFrozen(toolCalls)) return false;
  for (const call of toolCalls) if (!Object.isFrozen(call) || !Object.isFrozen(call.function)) return false;
  return true;
}

// --- tool definitions -----------------------------------------------------------------------------------------

/** A plain JSON value as it was when its JSON was made: the objects themselves, their keys in order, their values. */
type Snapshot =
  | string
  | number
  | boolean
  | null
  | undefined
  | { readonly source: readonly unknown[]; readonly items: readonly Snapshot[] }
  | { readonly source: object; readonly keys: readonly string[]; readonly values: readonly Snapshot[] };

interface ToolFragment {
  name: string;
  description: string | undefined;
  snapshot: Snapshot;
  /** Frozen all through, data properties only, when its JSON was made: it cannot have changed since. */
  frozen: boolean;
  bytes: Uint8Array;
}

const byParameters = new WeakMap<object, ToolFragment[]>();
/** Renderings kept per parameters object (a tool whose description changes on every call keeps at most these). */
const SHARED_LIMIT = 8;

/** A tool's wire JSON as UTF-8: the bytes of JSON.stringify(toWireTool(tool)). */
export function wireToolBytes(tool: WireToolDefinition): Uint8Array {
  const { parameters } = tool;
  const entries = typeof parameters === 'object' && parameters !== null ? byParameters.get(parameters) : undefined;
  if (entries !== undefined) {
    for (const entry of entries) {
      if (
        entry.name === tool.name &&
        entry.description === tool.description &&
        (entry.frozen || unchanged(parameters, entry.snapshot))
      )
        return entry.bytes;
    }
  }
  // Stringified first: it throws on what JSON cannot hold (a cycle) exactly as before, and the snapshot walk below
  // then only sees what it could stringify.
  const bytes = utf8.encode(JSON.stringify(toWireTool(tool)));
  const snapshot = typeof parameters === 'object' && parameters !== null ? snapshotOf(parameters) : NOT_PLAIN;
  if (snapshot === NOT_PLAIN) return bytes;
  const list = entries ?? [];
  if (list.length >= SHARED_LIMIT) list.length = 0;
  if (list.length === 0) byParameters.set(parameters, list);
  // Names and descriptions are strings, compared by content on the next call.
  list.push({ name: tool.name, description: tool.description, snapshot, frozen: frozenData(parameters), bytes });
  return bytes;
}

/** Whether a value's objects are all frozen and hold data properties only (a getter could answer differently). */
function frozenData(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (!Object.isFrozen(value)) return false;
  for (const descriptor of Object.values(Object.getOwnPropertyDescriptors(value))) {
    if (!('value' in descriptor) || !frozenData(descriptor.value)) return false;
  }
  return true;
}

const NOT_PLAIN = Symbol('not plain JSON');

/**
 * The snapshot of a value made of plain objects, arrays, strings, numbers, booleans, null and undefined; NOT_PLAIN
 * for anything whose JSON a later change could alter unseen (a class instance, a toJSON method, a function).
 */
function snapshotOf(value: unknown): Snapshot | typeof NOT_PLAIN {
  if (value === null || value === undefined) return value;
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
      return value;
    case 'object':
      break;
    default:
      return NOT_PLAIN;
  }
  if ('toJSON' in value) return NOT_PLAIN;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return NOT_PLAIN;
    const items: Snapshot[] = [];
    for (let index = 0; index < value.length; index++) {
      const item = snapshotOf(value[index]);
      if (item === NOT_PLAIN) return NOT_PLAIN;
      items.push(item);
    }
    return { source: value, items };
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return NOT_PLAIN;
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object);
  const values: Snapshot[] = [];
  for (const key of keys) {
    const item = snapshotOf(object[key]);
    if (item === NOT_PLAIN) return NOT_PLAIN;
    values.push(item);
  }
  return { source: object, keys, values };
}

/**
 * Whether a value is still what its snapshot saw: the same objects (by identity), the same keys in the same order,
 * the same primitive values. Cheaper than stringifying it again (no string is built).
 */
function unchanged(value: unknown, snapshot: Snapshot): boolean {
  if (typeof value !== 'object' || value === null) return value === snapshot;
  if (typeof snapshot !== 'object' || snapshot === null || snapshot.source !== value) return false;
  // JSON.stringify looks toJSON up on every object, enumerable or not, own or inherited.
  if ('toJSON' in value) return false;
  if ('items' in snapshot) {
    const array = value as readonly unknown[];
    const { items } = snapshot;
    if (array.length !== items.length) return false;
    for (let index = 0; index < items.length; index++) if (!unchanged(array[index], items[index])) return false;
    return true;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  const object = value as Record<string, unknown>;
  const { keys, values } = snapshot;
  // for…in lists own enumerable keys in Object.keys order (plain objects inherit none): a key added, removed,
  // re-added at the end or made non-enumerable shows as a different key or count.
  let index = 0;
  for (const key in object) {
    if (key !== keys[index] || !unchanged(object[key], values[index]!)) return false;
    index++;
  }
  return index === keys.length;
}
