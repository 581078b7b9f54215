import { describe, expect, it } from 'vitest';
import { markdownToMrkdwn, plainMrkdwn, readSlackText } from './slack-mrkdwn.js';

describe('markdownToMrkdwn', () => {
  it('writes Markdown as mrkdwn: emphasis, links, code, quotes, lists, headings; escapes &, < and >', () => {
    expect(
      markdownToMrkdwn(
        '# Plan\n\n**Bold**, *it*, ~~gone~~ and `a<b`.\n\n- one\n- [two](https://example.com/x?a=1&b=2)\n\n> quoted\n\n```ts\nif (a < b && c) {}\n```\n\n1 < 2 & 3 > 2',
      ),
    ).toBe(
      '*Plan*\n\n*Bold*, _it_, ~gone~ and `a&lt;b`.\n\n• one\n• <https://example.com/x?a=1&b=2|two>\n\n> quoted\n\n```\nif (a &lt; b &amp;&amp; c) {}\n```\n\n1 &lt; 2 &amp; 3 &gt; 2',
    );
  });

  it('keeps unsafe links as their text and a bare URL as a link', () => {
    expect(markdownToMrkdwn('[x](javascript:alert(1)) and https://example.com')).toBe('x and <https://example.com/>');
  });

  it('plain text is only escaped', () => {
    expect(plainMrkdwn('*a* <b> & c')).toBe('*a* &lt;b&gt; &amp; c');
  });
});

describe('readSlackText', () => {
  it('reads mentions, channels, links and entities; her mention is left out and noted', () => {
    const names = new Map([['U2', 'Bob']]);
    expect(
      readSlackText(
        '<@U1> ask <@U2> in <#C9|general> about <https://x.io|this> &amp; <!here> <mailto:a@b.c|a@b.c>',
        'U1',
        names,
      ),
    ).toEqual({ text: 'ask @Bob in #general about this (https://x.io) & @here a@b.c', mentionsHer: true });
    expect(readSlackText('hello <@U3>', 'U1')).toEqual({ text: 'hello @U3', mentionsHer: false });
  });
});
