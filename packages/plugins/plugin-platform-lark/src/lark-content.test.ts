import { describe, expect, it } from 'vitest';
import { readLarkContent, writeLarkContent } from './lark-content.js';

const SELF = 'ou_self';
const mentions = [
  { key: '@_user_1', id: { open_id: SELF }, name: 'Aalis' },
  { key: '@_user_2', id: { open_id: 'ou_bob' }, name: 'Bob' },
];

describe('readLarkContent', () => {
  it('reads a text message: her @ left out and noted, others as @name', () => {
    expect(readLarkContent('text', JSON.stringify({ text: '@_user_1 ask @_user_2 please' }), mentions, SELF)).toEqual({
      text: 'ask @Bob please',
      mentionsHer: true,
      resources: [],
    });
    expect(readLarkContent('text', JSON.stringify({ text: '@_all meeting' }), [], SELF).mentionsHer).toBe(true);
  });

  it('reads a post: title, text, links, @, code and images as resources', () => {
    const post = {
      title: 'Report',
      content: [
        [
          { tag: 'at', user_id: '@_user_1', user_name: 'Aalis' },
          { tag: 'text', text: ' see ' },
          { tag: 'a', text: 'this', href: 'https://x.io' },
        ],
        [{ tag: 'img', image_key: 'img_1' }],
        [{ tag: 'code_block', language: 'js', text: 'a()' }],
      ],
    };
    const read = readLarkContent('post', JSON.stringify(post), mentions, SELF);
    expect(read.mentionsHer).toBe(true);
    expect(read.text).toBe('Report\nsee this (https://x.io)\n\n```js\na()\n```');
    expect(read.resources).toEqual([{ key: 'img_1', type: 'image' }]);
  });

  it('reads images, files and audio as resources; other types as a bracketed note', () => {
    expect(readLarkContent('image', '{"image_key":"img_2"}', [], SELF).resources).toEqual([
      { key: 'img_2', type: 'image' },
    ]);
    expect(readLarkContent('file', '{"file_key":"f_1","file_name":"a.pdf"}', [], SELF).resources).toEqual([
      { key: 'f_1', type: 'file', name: 'a.pdf' },
    ]);
    expect(readLarkContent('audio', '{"file_key":"f_2","duration":3000}', [], SELF).resources).toEqual([
      { key: 'f_2', type: 'audio' },
    ]);
    expect(readLarkContent('sticker', '{"file_key":"s"}', [], SELF).text).toBe('[sticker]');
  });

  it('throws on content that is not the JSON its type has', () => {
    expect(() => readLarkContent('text', 'not json', [], SELF)).toThrow();
    expect(() => readLarkContent('post', '{"title":"x"}', [], SELF)).toThrow('a post without content');
    expect(() => readLarkContent('image', '{}', [], SELF)).toThrow('image_key');
  });
});

describe('writeLarkContent', () => {
  it('writes a post with a Markdown element, a card with a markdown element, or text', () => {
    expect(writeLarkContent('**hi**', 'post')).toEqual({
      msgType: 'post',
      content: JSON.stringify({ zh_cn: { content: [[{ tag: 'md', text: '**hi**' }]] } }),
    });
    expect(JSON.parse(writeLarkContent('**hi**', 'card').content).body.elements).toEqual([
      { tag: 'markdown', content: '**hi**' },
    ]);
    expect(writeLarkContent('hi', 'text')).toEqual({ msgType: 'text', content: '{"text":"hi"}' });
  });
});
