import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildIncomingContent } from './build-incoming-content.js';
import { formatArchiveTime } from './format-archive-time.js';

const TIME = Date.UTC(2026, 10, 29, 21, 5, 59);

describe('formatArchiveTime', () => {
  it('formats minutes in UTC by default', () => {
    expect(formatArchiveTime({ time: TIME })).toBe('[2026-11-29 21:05]');
  });

  it('formats in a configured IANA time zone, midnight as 00', () => {
    expect(formatArchiveTime({ time: TIME, timeZone: 'Asia/Shanghai' })).toBe('[2026-11-30 05:05]');
    expect(formatArchiveTime({ time: Date.UTC(2026, 0, 1, 16, 0), timeZone: 'Asia/Shanghai' })).toBe(
      '[2026-01-02 00:00]',
    );
  });

  it('refuses an unknown time zone with a coded error', () => {
    expect(() => formatArchiveTime({ time: TIME, timeZone: 'Mars/Olympus' })).toThrow(
      expect.objectContaining({ code: 'AALIS_ARCHIVE_TIME_ZONE_INVALID' }),
    );
  });
});

describe('buildIncomingContent', () => {
  it('rule: time annotation, then the sender prefix, then the text', () => {
    expect(buildIncomingContent({ message: { content: 'hi' }, speaker: 'Alice (10001)', time: TIME })).toBe(
      '[2026-11-29 21:05] Alice (10001): hi',
    );
  });

  it('rule: without a speaker only the time annotation precedes the text', () => {
    expect(buildIncomingContent({ message: { content: 'hi' }, speaker: undefined, time: TIME })).toBe(
      '[2026-11-29 21:05] hi',
    );
  });

  it('rule: a host notice keeps only the host text under [宿主通知], never the untrusted part', () => {
    const content = buildIncomingContent({
      message: { content: 'Task done.', hostNotice: { kind: 'task', id: 'n1', untrusted: 'do evil' } },
      speaker: 'ignored',
      time: TIME,
    });
    expect(content).toBe('[2026-11-29 21:05] [宿主通知]\nTask done.');
  });

  it('rule: English catalogue texts in the en locale', () => {
    expect(
      buildIncomingContent({
        message: { content: 'x', hostNotice: { kind: 'k', id: 'i' } },
        speaker: undefined,
        time: TIME,
        locale: 'en',
      }),
    ).toBe('[2026-11-29 21:05] [Host notice]\nx');
  });

  it('rule: the text is kept verbatim, placeholders and replacement patterns included', () => {
    const text = 'line1\n{time} {speaker} $& $1 {content}\n';
    expect(buildIncomingContent({ message: { content: text }, speaker: '{content}', time: TIME })).toBe(
      `[2026-11-29 21:05] {content}: ${text}`,
    );
  });

  it('is byte-stable: the same input always gives the same bytes (golden values)', () => {
    const inputs = [
      { message: { content: '你好' }, speaker: '小明 (123)', time: 0 },
      { message: { content: '' }, speaker: undefined, time: 1_700_000_000_000, timeZone: 'Europe/Berlin' },
      { message: { content: 'a', hostNotice: { kind: 'k', id: 'i' } }, speaker: undefined, time: TIME },
    ];
    expect(inputs.map((input) => buildIncomingContent(input))).toEqual([
      '[1970-01-01 00:00] 小明 (123): 你好',
      '[2023-11-14 23:13] ',
      '[2026-11-29 21:05] [宿主通知]\na',
    ]);
  });

  it('property: deterministic, and ends with the text unchanged', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.option(fc.string({ minLength: 1 }), { nil: undefined }),
        fc.integer({ min: 0, max: 4_102_444_800_000 }),
        fc.constantFrom('UTC', 'Asia/Shanghai', 'America/New_York'),
        (content, speaker, time, timeZone) => {
          const input = { message: { content }, speaker, time, timeZone };
          const first = buildIncomingContent(input);
          expect(buildIncomingContent(structuredClone(input))).toBe(first);
          expect(first.endsWith(content)).toBe(true);
          expect(first).toMatch(/^\[\d{4}-\d{2}-\d{2} \d{2}:\d{2}\] /);
        },
      ),
    );
  });
});
