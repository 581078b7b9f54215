import type { Attachment, Message, ModelToolDefinition, ToolCall } from '@aalis/schema-message';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildChatRequest } from './build-chat-request.js';
import { type EncodeChatRequestOptions, encodeChatRequest } from './encode-chat-request.js';
import { toWireMessages } from './to-wire-messages.js';

// encodeChatRequest reuses the JSON of frozen history messages and of tool definitions (checked against a snapshot of
// their parameters). Its bytes must be those of JSON.stringify of the request built from scratch, on the first call
// and on every later one, whatever changed in between.

const utf8 = new TextEncoder();
const reference = (options: EncodeChatRequestOptions): Uint8Array => {
  const { messages, vision, includeReasoning, describeAttachment, ...rest } = options;
  return utf8.encode(
    JSON.stringify(
      buildChatRequest({
        ...rest,
        messages: toWireMessages({ messages, vision, includeReasoning, describeAttachment }),
      }),
    ),
  );
};
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

// Text with what JSON escapes or UTF-8 encodes in more than one byte: quotes, controls, line separators, CJK,
// astral characters and lone surrogates (JSON.stringify writes those as \ud800 escapes).
const content = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('', '中文的回答', '"quoted" \\ back', '\u2028\u2029', '\ud800', 'a\udc00b', '😀 emoji', '\u0000\n\t'),
);
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });

const toolCall: fc.Arbitrary<ToolCall> = fc.record({
  id: content,
  type: fc.constant('function' as const),
  function: fc.record({ name: content, arguments: content }),
});
const attachment: fc.Arbitrary<Attachment> = fc.record(
  {
    type: fc.constantFrom('image', 'file', 'audio'),
    url: maybe(fc.constantFrom('https://example.test/a.png', 'file:///x')),
    data: maybe(fc.constantFrom('aGVsbG8=', '')),
    mimeType: maybe(fc.constantFrom('image/jpeg', 'image/png')),
    name: maybe(content),
    description: maybe(content),
  },
  { requiredKeys: ['type'] },
) as fc.Arbitrary<Attachment>;
// Optional fields absent, present, or present as undefined.
const message: fc.Arbitrary<Message> = fc.record(
  {
    id: maybe(fc.string()),
    role: fc.constantFrom('system', 'user', 'assistant', 'tool'),
    content,
    toolCalls: maybe(fc.array(toolCall, { maxLength: 3 })),
    toolCallId: maybe(content),
    name: maybe(content),
    reasoningContent: maybe(content),
    kind: maybe(fc.constantFrom('event-marker', 'compression-divider', 'summary', 'text')),
    attachments: maybe(fc.array(attachment, { maxLength: 2 })),
    metadata: maybe(fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 2 })),
    timestamp: maybe(fc.oneof(fc.integer(), fc.double())),
  },
  { requiredKeys: ['role', 'content'] },
) as fc.Arbitrary<Message>;

const jsonObject = fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 });
const tool: fc.Arbitrary<ModelToolDefinition> = fc.record(
  {
    name: content,
    description: maybe(content),
    parameters: jsonObject.map((properties) => ({ type: 'object', properties })),
  },
  { requiredKeys: ['name', 'parameters'] },
);

const settings = fc.record({
  model: content,
  stream: fc.boolean(),
  includeUsage: maybe(fc.boolean()),
  toolChoice: maybe(fc.oneof(fc.constantFrom('auto' as const, 'none' as const), fc.record({ name: content }))),
  temperature: maybe(fc.double({ noNaN: true })),
  maxTokens: maybe(fc.nat()),
  maxTokensField: maybe(fc.constantFrom('max_tokens' as const, 'max_completion_tokens' as const)),
  // Fields that collide with the request's own keep their position with the request's value, as in the spread.
  extra: maybe(
    fc.oneof(
      jsonObject,
      fc.constant({ messages: 'x', tools: [1], reasoning_effort: 'high' }),
      fc.constant({ tools: [1], messages: 'x' }),
      // A caller's text that holds the encoder's stand-ins for the two lists.
      fc.constant({ note: '\u0000aalis:messages\u0000', other: ['\u0000aalis:tools\u0000'] }),
      fc.constant({ chat_template_kwargs: { enable_thinking: true }, when: new Date(0) }),
    ),
  ),
  vision: maybe(fc.boolean()),
  includeReasoning: maybe(fc.boolean()),
  describe: fc.boolean(),
});

function freezeDeep<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) freezeDeep(item);
    Object.freeze(value);
  }
  return value;
}

const describeAttachment = (attachment: Attachment) =>
  attachment.description === '' ? undefined : `[${attachment.type}: ${attachment.name ?? ''}]`;

function optionsOf(
  { describe: withDescriptions, ...fields }: typeof settings extends fc.Arbitrary<infer S> ? S : never,
  messages: Message[],
  tools: ModelToolDefinition[],
): EncodeChatRequestOptions {
  return { ...fields, messages, tools, describeAttachment: withDescriptions ? describeAttachment : undefined };
}

describe('encodeChatRequest', () => {
  afterEach(() => vi.restoreAllMocks());

  it('writes exactly the bytes of JSON.stringify of the request, first call and again from its caches', () => {
    fc.assert(
      fc.property(
        settings,
        fc.array(fc.tuple(message, fc.boolean()), { maxLength: 8 }),
        fc.array(fc.tuple(tool, fc.boolean()), { maxLength: 4 }),
        (fields, messages, tools) => {
          const options = optionsOf(
            fields,
            messages.map(([entry, frozen]) => (frozen ? freezeDeep(entry) : entry)),
            tools.map(([entry, frozen]) => (frozen ? freezeDeep(entry) : entry)),
          );
          const expected = text(reference(options));
          expect(text(encodeChatRequest(options))).toBe(expected);
          // Fresh copies of the tools over the same parameters, as a registry hands them out each call.
          const again = { ...options, tools: options.tools!.map((entry) => ({ ...entry })) };
          expect(text(encodeChatRequest(again))).toBe(expected);
          expect(encodeChatRequest(again)).toEqual(reference(again));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('sees every change of an unfrozen message or of a tool’s parameters made between two calls', () => {
    type Change = (messages: Message[], tools: ModelToolDefinition[]) => void;
    const parametersOf = (tools: ModelToolDefinition[], at: number) =>
      tools[at % tools.length]!.parameters as {
        type: string;
        properties: Record<string, unknown>;
        [key: string]: unknown;
      };
    const change: fc.Arbitrary<Change> = fc.oneof(
      fc.record({ at: fc.nat(), value: content }).map(
        ({ at, value }): Change =>
          (messages) => {
            messages[at % messages.length]!.content = value;
          },
      ),
      fc.record({ at: fc.nat(), value: maybe(content) }).map(
        ({ at, value }): Change =>
          (messages) => {
            messages[at % messages.length]!.reasoningContent = value;
          },
      ),
      fc.record({ at: fc.nat(), call: toolCall }).map(
        ({ at, call }): Change =>
          (messages) => {
            const entry = messages[at % messages.length]!;
            if (entry.toolCalls) entry.toolCalls.push(call);
            else entry.toolCalls = [call];
          },
      ),
      fc.record({ at: fc.nat(), value: content }).map(
        ({ at, value }): Change =>
          (messages) => {
            const call = messages[at % messages.length]!.toolCalls?.[0];
            if (call) call.function.arguments = value;
          },
      ),
      fc.record({ at: fc.nat(), role: fc.constantFrom('user', 'assistant', 'tool') }).map(
        ({ at, role }): Change =>
          (messages) => {
            messages[at % messages.length]!.role = role as Message['role'];
          },
      ),
      fc.record({ at: fc.nat(), value: content }).map(
        ({ at, value }): Change =>
          (_, tools) => {
            parametersOf(tools, at).properties.added = { type: 'string', description: value };
          },
      ),
      fc.record({ at: fc.nat(), value: fc.jsonValue() }).map(
        ({ at, value }): Change =>
          (_, tools) => {
            const properties = parametersOf(tools, at).properties;
            const key = Object.keys(properties)[0];
            if (key !== undefined) properties[key] = value;
            else properties.first = value;
          },
      ),
      // The same keys in another order: JSON's order follows.
      fc.nat().map(
        (at): Change =>
          (_, tools) => {
            const parameters = parametersOf(tools, at);
            const { type } = parameters;
            delete (parameters as { type?: string }).type;
            parameters.type = type;
          },
      ),
      fc.record({ at: fc.nat(), value: content }).map(
        ({ at, value }): Change =>
          (_, tools) => {
            const parameters = parametersOf(tools, at);
            if (!Array.isArray(parameters.required)) parameters.required = [];
            (parameters.required as unknown[]).push(value);
          },
      ),
      fc.record({ at: fc.nat(), value: maybe(content) }).map(
        ({ at, value }): Change =>
          (_, tools) => {
            tools[at % tools.length]!.description = value;
          },
      ),
    );
    fc.assert(
      fc.property(
        settings,
        fc.array(message, { minLength: 1, maxLength: 6 }),
        fc.array(tool, { minLength: 1, maxLength: 3 }),
        fc.array(change, { minLength: 1, maxLength: 3 }),
        (fields, messages, tools, changes) => {
          const options = optionsOf(fields, messages, tools);
          encodeChatRequest(options);
          for (const apply of changes) {
            apply(messages, tools);
            expect(text(encodeChatRequest(options))).toBe(text(reference(options)));
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('encodes a frozen message once and a tool set once, whatever the number of calls', () => {
    let reads = 0;
    const history = Object.freeze({
      role: 'user' as const,
      get content() {
        reads++;
        return 'What is the weather in 北京?';
      },
    }) as Message;
    const fresh: Message = { role: 'user', content: 'new' };
    const parameters = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    const stringify = vi.spyOn(JSON, 'stringify');
    const toolJsons = () => stringify.mock.calls.filter(([value]) => (value as { type?: string })?.type === 'function');
    for (let call = 0; call < 3; call++) {
      const tools = [{ name: 'weather', description: '天气', parameters }];
      const bytes = encodeChatRequest({ model: 'm', stream: true, messages: [history, fresh], tools });
      expect(text(bytes)).toBe(
        '{"model":"m","messages":[{"role":"user","content":"What is the weather in 北京?"},{"role":"user","content":"new"}],' +
          '"stream":true,"stream_options":{"include_usage":true},"tools":[{"type":"function","function":{"name":"weather",' +
          '"parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]},"description":"天气"}}]}',
      );
    }
    expect(reads).toBe(1);
    expect(toolJsons()).toHaveLength(1);
  });

  it('never keeps the JSON of a message with attachments (their text is the caller’s) nor of an unfrozen one', () => {
    const withImage = freezeDeep({
      role: 'user' as const,
      content: 'look',
      attachments: [{ type: 'image' as const, url: 'https://example.test/a.png', name: 'a.png' }],
    }) as Message;
    let label = 'first';
    const describeAttachment = () => label;
    const encode = (vision: boolean) =>
      text(encodeChatRequest({ model: 'm', stream: false, messages: [withImage], vision, describeAttachment }));
    expect(encode(false)).toContain('"content":"look\\nfirst"');
    label = 'second';
    expect(encode(false)).toContain('"content":"look\\nsecond"');
    expect(encode(true)).toContain('"image_url":{"url":"https://example.test/a.png"}');
  });
});
