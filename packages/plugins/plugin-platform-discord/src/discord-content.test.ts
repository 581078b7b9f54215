import { describe, expect, it } from 'vitest';
import { readMessage, toDiscordMarkdown } from './discord-content.js';

const HER = '900';

describe('readMessage', () => {
  it('removes her mention, names other people, channels and custom emoji', () => {
    const read = readMessage(
      {
        content: '<@900> ask <@!12> in <#77> about <:party:123> and <a:wave:456>, <@&5>',
        mentions: [
          { id: '900', username: 'aalis', bot: true },
          { id: '12', username: 'bob', global_name: 'Bob' },
        ],
      },
      HER,
      (id) => (id === '77' ? 'general' : undefined),
    );
    expect(read.mentionsHer).toBe(true);
    expect(read.text).toBe('ask @Bob in #general about :party: and :wave:, @role:5');
  });

  it('is not addressed by a mention of someone else, and keeps unknown ids readable', () => {
    const read = readMessage({ content: 'hi <@13> see <#78>', mentions: [] }, HER, () => undefined);
    expect(read.mentionsHer).toBe(false);
    expect(read.text).toBe('hi @13 see #78');
  });

  it('takes a mention listed only in mentions[] (a reply that pings her) as addressing her', () => {
    expect(readMessage({ content: 'and then?', mentions: [{ id: HER }] }, HER, () => undefined).mentionsHer).toBe(true);
  });

  it('takes a mention of her managed role as addressing her, and removes it', () => {
    const read = readMessage(
      { content: '<@&70> status?', mention_roles: ['70'] },
      HER,
      () => undefined,
      new Set(['70']),
    );
    expect(read).toMatchObject({ mentionsHer: true, text: 'status?' });
    expect(
      readMessage({ content: '<@&71> status?', mention_roles: ['71'] }, HER, () => undefined, new Set(['70'])),
    ).toMatchObject({ mentionsHer: false, text: '@role:71 status?' });
  });

  it('sorts attachments into images, audio and files; stickers by name', () => {
    const read = readMessage(
      {
        content: '',
        attachments: [
          { url: 'https://cdn/a.png', filename: 'a.png', content_type: 'image/png' },
          { url: 'https://cdn/v.ogg', filename: 'voice-message.ogg', content_type: 'audio/ogg' },
          { url: 'https://cdn/r.pdf', filename: 'report.pdf', content_type: 'application/pdf' },
          { filename: 'no-url.txt' },
        ],
        sticker_items: [{ name: 'Wumpus' }],
      },
      HER,
      () => undefined,
    );
    expect(read.images).toEqual([{ url: 'https://cdn/a.png' }]);
    expect(read.files).toEqual([
      { type: 'audio', url: 'https://cdn/v.ogg', name: 'voice-message.ogg', mimeType: 'audio/ogg' },
      { type: 'file', url: 'https://cdn/r.pdf', name: 'report.pdf', mimeType: 'application/pdf' },
    ]);
    expect(read.stickers).toEqual(['Wumpus']);
  });
});

describe('toDiscordMarkdown', () => {
  it('keeps what Discord renders as it is', () => {
    const text = '# Title\n**bold** *it* `code` [link](https://x.y)\n> quote\n- item\n```js\nconst a = 1;\n```';
    expect(toDiscordMarkdown(text)).toBe(text);
  });

  it('writes a table as an aligned code block', () => {
    expect(toDiscordMarkdown('Scores:\n| name | points |\n|---|--:|\n| Alice | 3 |\n| Bob | 12 |\nDone.')).toBe(
      'Scores:\n```\nname  | points\n------+-------\nAlice | 3\nBob   | 12\n```\nDone.',
    );
  });

  it('makes deep headings bold and images links; leaves code blocks alone', () => {
    expect(
      toDiscordMarkdown(
        '#### Small\n![a cat](https://c.at/x.png) ![](https://c.at/y.png)\n```\n#### not a heading\n```',
      ),
    ).toBe('**Small**\n[a cat](https://c.at/x.png) https://c.at/y.png\n```\n#### not a heading\n```');
  });
});
