// The built-in tools of the default plugin set: current_time and calculator. Ungrouped, so every session offers
// them, and the offline model's `/call <tool> {json}` lines exercise the agent's tool loop on a fresh install.
import { closedParameters, tools } from '@aalis/api-tools';
import { definePlugin, i18n, isTimeZone, textRef, zonedTime } from '@aalis/core';
import { calculate, formatNumber } from './calculator.js';
import { runtimeErrors } from './runtime-errors.js';

export function systemTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

export { isTimeZone };

/** The current time as ISO 8601 (UTC) and as the local date-time, weekday and offset of a time zone. */
export function describeTime(now: Date, timeZone: string): string {
  if (!isTimeZone(timeZone)) throw runtimeErrors.AALIS_TIME_ZONE_UNKNOWN({ zone: timeZone });
  const { year, month, day, hour, minute, second, weekday, offset } = zonedTime(now, timeZone);
  return JSON.stringify({
    iso: now.toISOString(),
    timeZone,
    local: `${year}-${month}-${day} ${hour}:${minute}:${second}`,
    weekday,
    offset,
  });
}

export function createBasicToolsPlugin({ now = () => new Date() }: { now?: () => Date } = {}) {
  return definePlugin({
    name: '@aalis/runtime/basic-tools',
    uses: { tools, i18n },
    apply({ tools, i18n }) {
      const t = (key: string) => i18n.use.t(textRef(key));
      tools.use.register({
        name: 'current_time',
        description: t('runtime.tools.currentTime'),
        parameters: closedParameters({
          timeZone: { type: 'string', description: t('runtime.tools.currentTime.timeZone') },
        }),
        handler: (args: { timeZone?: string }) => describeTime(now(), args.timeZone || systemTimeZone()),
      });
      tools.use.register({
        name: 'calculator',
        description: t('runtime.tools.calculator'),
        parameters: closedParameters(
          { expression: { type: 'string', description: t('runtime.tools.calculator.expression') } },
          ['expression'],
        ),
        handler: (args: { expression: string }) => formatNumber(calculate(args.expression)),
      });
    },
  });
}
