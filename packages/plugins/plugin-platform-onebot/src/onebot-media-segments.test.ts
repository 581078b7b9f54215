// record and file segments: fetchable ones (an http(s) url, or a file value that is a URL or base64:// payload)
// are handed on as voice recordings and files; ones without a source stay bracketed labels.
import { describe, expect, it } from 'vitest';
import { parseSegments, type SegmentLabels, toSegments } from './onebot-segments.js';

const labels: SegmentLabels = {
  image: '[image]',
  face: (id) => `[face ${id}]`,
  record: '[voice]',
  video: '[video]',
  file: (name) => `[file ${name}]`,
  atAll: '@all',
  other: (type) => `[${type}]`,
};

describe('OneBot record and file segments', () => {
  it('hands fetchable ones on and keeps labels for the rest', () => {
    const parsed = parseSegments(
      [
        { type: 'text', data: { text: 'listen ' } },
        { type: 'record', data: { file: 'abc.amr', url: 'http://127.0.0.1:1/abc.amr' } },
        { type: 'file', data: { file: 'report.pdf', url: 'https://files.example/report.pdf', file_size: '100' } },
        { type: 'record', data: { file: 'local-only.silk' } },
        { type: 'file', data: { name: 'notes.txt', file: 'base64://aGVsbG8=' } },
        { type: 'file', data: { name: 'nowhere.doc' } },
      ],
      '42',
      labels,
    );
    expect(parsed.files).toEqual([
      { type: 'audio', url: 'http://127.0.0.1:1/abc.amr', name: 'abc.amr' },
      { type: 'file', url: 'https://files.example/report.pdf', name: 'report.pdf' },
      { type: 'file', url: 'base64://aGVsbG8=', name: 'notes.txt' },
    ]);
    expect(parsed.text).toBe('listen [voice][file nowhere.doc]');
  });

  it('reads record segments from the CQ-code string format too', () => {
    const parsed = parseSegments(toSegments('[CQ:record,file=v.silk,url=http://127.0.0.1:1/v.silk]'), '42', labels);
    expect(parsed.files).toEqual([{ type: 'audio', url: 'http://127.0.0.1:1/v.silk', name: 'v.silk' }]);
  });
});
