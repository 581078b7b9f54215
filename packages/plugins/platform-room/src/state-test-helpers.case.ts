// Test helpers for the adapter-state helpers: a platform service that keeps the reported state, a logger that keeps
// its lines, a coded error family to refuse and fail with.
import type { PlatformService, PlatformState } from '@aalis/api-platform';
import { defineErrors, type Logger, type ServiceHandle } from '@aalis/core';
import { type PlatformStateReport, reportPlatformState } from './platform-state-report.js';

export const testErrors = defineErrors({
  AALIS_TEST_REFUSED: { en: 'The test platform refused the credentials.', 'zh-CN': '测试平台拒绝了凭据。' },
  AALIS_TEST_DOWN: { en: 'The test platform is down.', 'zh-CN': '测试平台不可用。' },
});

export interface LoggedLine {
  level: string;
  message: string;
  fields: Record<string, unknown> | undefined;
}

export function recordingLogger(lines: LoggedLine[]): Logger {
  const at =
    (level: string) =>
    (message: string, fields?: Record<string, unknown>): void => {
      lines.push({ level, message, fields });
    };
  const logger: Logger = {
    name: 'test',
    trace: at('trace'),
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    enabled: () => true,
    child: () => logger,
  };
  return logger;
}

/** A state report for `@aalis/plugin-platform-test`, and every state it was set to, in order. */
export function reportedStates(endpoint?: string): { state: PlatformStateReport; seen: PlatformState[] } {
  const seen: PlatformState[] = [];
  const service: PlatformService = {
    register: () => () => {},
    get: () => undefined,
    list: () => [],
    reportState: () => () => {},
    states: () => [],
  };
  const handle: ServiceHandle<PlatformService> = { use: service, available: true, provider: undefined };
  const state = reportPlatformState(handle, {
    id: 'test',
    plugin: '@aalis/plugin-platform-test',
    ...(endpoint ? { endpoint } : {}),
  });
  const set = state.set.bind(state);
  state.set = (next) => {
    set(next);
    seen.push(state.current());
  };
  return { state, seen };
}
