import { describe, expect, it } from 'vitest';
import { logFileName, logLine, logText } from './log-lines.js';

describe('log lines', () => {
  it('writes a record as the file log does, fields as JSON at the end', () => {
    const time = Date.UTC(2026, 0, 2, 3, 4, 5, 678);
    expect(logLine({ time, level: 'info', name: 'agent', message: 'turn done' })).toBe(
      '2026-01-02T03:04:05.678Z INFO  agent: turn done',
    );
    expect(logText([{ time, level: 'warn', name: 'x', message: 'm', fields: { sessionId: 's1' } }])).toBe(
      '2026-01-02T03:04:05.678Z WARN  x: m {"sessionId":"s1"}\n',
    );
    expect(logFileName(Date.UTC(2026, 0, 2, 3, 4), Date.UTC(2026, 0, 2, 5, 6))).toBe(
      'aalis-logs-20260102-0304-20260102-0506.log',
    );
  });
});
