import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { estimateTokensInFunctions } from 'gpt-tokenizer/functionCalling';
import { describe, expect, it } from 'vitest';
import {
  estimateMessagesTokens,
  estimateMessageTokens,
  estimateTextTokens,
  IMAGE_TOKENS,
  MESSAGE_OVERHEAD_TOKENS,
  TOOL_CALL_OVERHEAD_TOKENS,
} from './estimate-tokens.js';
import {
  estimateToolDefinitionTokens,
  renderToolDefinition,
  type ToolDefinition,
} from './estimate-tool-definition-tokens.js';

const corpusRoot = join(import.meta.dirname, '..', 'bench', 'corpus');
const corpusClass = (name: string) =>
  readdirSync(join(corpusRoot, name)).map((file) => readFileSync(join(corpusRoot, name, file), 'utf8'));

describe('estimateTextTokens', () => {
  it.each(['en', 'zh', 'code', 'json'])('is within ±10%% of o200k on the %s corpus', (name) => {
    const texts = corpusClass(name);
    const real = texts.reduce((sum, text) => sum + encode(text).length, 0);
    const estimated = texts.reduce((sum, text) => sum + estimateTextTokens(text), 0);
    expect(Math.abs(estimated / real - 1)).toBeLessThan(0.1);
  });

  it('counts Chinese as Chinese (not characters ÷ 4, which undercounts it about 2.3×)', () => {
    const text =
      '消息一旦发送就不可修改。如果需要更正,请发送一条新的消息,并在业务上以最新的一条为准。单条消息体不超过 4 MB。';
    const real = encode(text).length;
    expect(text.length / 4).toBeLessThan(real * 0.6);
    expect(Math.abs(estimateTextTokens(text) / real - 1)).toBeLessThan(0.25);
  });

  it('is 0 for an empty text and at least 1 for any other', () => {
    expect(estimateTextTokens('')).toBe(0);
    expect(estimateTextTokens(' ')).toBe(1);
    expect(estimateTextTokens('a')).toBe(1);
  });

  it('stays in a sane range on text it was not calibrated on (Japanese, Korean, emoji, base64, Cyrillic)', () => {
    const samples = [
      'お世話になっております。明日の会議は午後三時からに変更になりました。ご確認ください。',
      '안녕하세요. 내일 회의는 오후 세 시로 변경되었습니다. 확인 부탁드립니다.',
      'Great job 🎉🎉 see you tomorrow 👋 — ok ✅',
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
      'Привет! Завтрашняя встреча перенесена на три часа дня. Пожалуйста, подтвердите.',
    ];
    for (const text of samples) {
      const ratio = estimateTextTokens(text) / encode(text).length;
      expect(ratio).toBeGreaterThan(0.5);
      expect(ratio).toBeLessThan(2);
    }
  });
});

describe('estimateMessageTokens', () => {
  it('adds the per-message overhead to the content', () => {
    expect(estimateMessageTokens({ role: 'user', content: '' })).toBe(MESSAGE_OVERHEAD_TOKENS);
    expect(estimateMessageTokens({ role: 'user', content: 'hello world' })).toBe(
      MESSAGE_OVERHEAD_TOKENS + estimateTextTokens('hello world'),
    );
  });

  it('counts reasoning content and each tool call’s name and arguments', () => {
    const base = estimateMessageTokens({ role: 'assistant', content: 'ok' });
    const withReasoning = estimateMessageTokens({
      role: 'assistant',
      content: 'ok',
      reasoningContent: 'Let me think about the order of steps first.',
    });
    expect(withReasoning).toBeGreaterThan(base + 5);
    const args = JSON.stringify({ query: '成都 三月 天气', limit: 4 });
    const withCall = estimateMessageTokens({
      role: 'assistant',
      content: 'ok',
      toolCalls: [{ id: 'c1', type: 'function', function: { name: 'web_search', arguments: args } }],
    });
    expect(withCall - base).toBeGreaterThanOrEqual(TOOL_CALL_OVERHEAD_TOKENS + estimateTextTokens(args));
  });

  it('counts an image it sends as an image, other attachments by their description', () => {
    const image = estimateMessageTokens({
      role: 'user',
      content: '',
      attachments: [{ type: 'image', url: 'https://x/y.png' }],
    });
    expect(image).toBe(MESSAGE_OVERHEAD_TOKENS + IMAGE_TOKENS);
    const file = estimateMessageTokens({
      role: 'user',
      content: '',
      attachments: [{ type: 'file', description: 'a quarterly report' }],
    });
    expect(file).toBe(MESSAGE_OVERHEAD_TOKENS + estimateTextTokens('a quarterly report'));
  });

  it('notices a message edited in place (the cache compares content, reasoning and tool calls)', () => {
    const message = {
      role: 'assistant' as const,
      content: 'short',
      toolCalls: [{ id: 'c', type: 'function' as const, function: { name: 't', arguments: '{}' } }],
    };
    const first = estimateMessageTokens(message);
    message.content = 'a much longer content than before, with several more words in it';
    const second = estimateMessageTokens(message);
    expect(second).toBeGreaterThan(first);
    message.toolCalls[0]!.function.arguments = JSON.stringify({
      text: 'many more argument tokens than the empty object',
    });
    expect(estimateMessageTokens(message)).toBeGreaterThan(second);
  });

  it('estimateMessagesTokens sums what is sent: control messages count nothing', () => {
    const sent = { role: 'user' as const, content: 'hi there' };
    const marker = { role: 'system' as const, content: 'turn record', kind: 'event-marker' };
    expect(estimateMessagesTokens([sent, marker])).toBe(estimateMessageTokens(sent));
  });
});

describe('estimateToolDefinitionTokens', () => {
  const tools: ToolDefinition[] = JSON.parse(
    readFileSync(join(corpusRoot, 'json', 'tools.json.txt'), 'utf8'),
  ).tools.map((tool: { function: ToolDefinition }) => tool.function);

  it('is within ±10% of gpt-tokenizer’s o200k count of the same definitions', () => {
    const real = estimateTokensInFunctions(tools as never, (text) => encode(text).length);
    expect(Math.abs(estimateToolDefinitionTokens(tools) / real - 1)).toBeLessThan(0.1);
  });

  it('renders a tool the way providers show it to the model', () => {
    expect(
      renderToolDefinition({
        name: 'get_weather',
        description: 'Current weather',
        parameters: {
          type: 'object',
          properties: {
            city: { type: 'string', description: 'City name' },
            unit: { type: 'string', enum: ['c', 'f'] },
          },
          required: ['city'],
        },
      }),
    ).toBe(
      '// Current weather\ntype get_weather = (_: {\n// City name\ncity: string,\nunit?: "c" | "f",\n}) => any;\n',
    );
  });

  it('writes anyOf and oneOf variants as a union, skipping variants that are not schemas', () => {
    const rendered = renderToolDefinition({
      name: 'pick',
      description: '',
      parameters: {
        type: 'object',
        properties: {
          id: { anyOf: [{ type: 'string' }, { type: 'integer' }, null] },
          at: { oneOf: [{ type: 'null' }] },
        },
      },
    });
    expect(rendered).toContain('id?: string | number,');
    expect(rendered).toContain('at?: null,');
  });

  it('costs nothing for no tools, and caches per definition object', () => {
    expect(estimateToolDefinitionTokens([])).toBe(0);
    expect(estimateToolDefinitionTokens(tools)).toBe(estimateToolDefinitionTokens(tools));
  });
});

describe('portability', () => {
  it('src imports nothing Node-only and never the tokenizer (the estimator also runs in Pling)', () => {
    const sources = readdirSync(import.meta.dirname).filter(
      (file) => file.endsWith('.ts') && !file.includes('.test.') && !file.includes('.case.'),
    );
    for (const file of sources) {
      const source = readFileSync(join(import.meta.dirname, file), 'utf8');
      expect(source, file).not.toMatch(/from ['"](node:|fs|path|gpt-tokenizer)/);
    }
  });
});
