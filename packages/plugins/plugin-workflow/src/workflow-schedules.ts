// Scheduled workflows: each workflow's `triggers.schedule` cron expressions fire a run, each firing claimed once in
// the database so several processes (or a restart within the same minute) never start it twice.
import type { WorkflowService } from '@aalis/api-workflow';
import type { Logger } from '@aalis/core';
import { Cron } from 'croner';
import type { RunStore } from './run-store.js';

export interface ScheduleDeps {
  readonly service: WorkflowService;
  readonly store: RunStore;
  readonly logger: Logger;
  readonly timeZone: string;
  readonly pollMs: number;
  readonly now?: () => number;
}

/** Looks every `pollMs` for firings due since the last look and starts them. */
export class WorkflowSchedules {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private last: number;
  private stopped = false;
  private readonly now: () => number;

  constructor(private readonly deps: ScheduleDeps) {
    this.now = deps.now ?? Date.now;
    this.last = this.now();
  }

  start(): void {
    const tick = async () => {
      if (this.stopped) return;
      try {
        await this.check();
      } catch (error) {
        this.deps.logger.warn('workflow schedules could not be checked', { error: String(error) });
      }
      if (!this.stopped) this.timer = setTimeout(tick, this.deps.pollMs);
    };
    this.timer = setTimeout(tick, this.deps.pollMs);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** Starts every run whose firing fell in (last look, now]. */
  async check(): Promise<void> {
    const from = this.last;
    const to = this.now();
    this.last = to;
    for (const summary of await this.deps.service.list()) {
      if (summary.problems) continue;
      const definition = await this.deps.service.definition(summary.name).catch(() => undefined);
      if (!definition || definition.triggers.schedule.length === 0) continue;
      for (const expression of definition.triggers.schedule) {
        const cron = new Cron(expression, {
          paused: true,
          timezone: definition.triggers.timeZone ?? this.deps.timeZone,
        });
        // At most a few firings per look (a cron of every second polled each second).
        for (
          let next = cron.nextRun(new Date(from)), count = 0;
          next && next.getTime() <= to && count < 5;
          count += 1
        ) {
          const at = next.getTime();
          if (await this.deps.store.claimFiring(definition.name, at)) {
            this.deps.logger.info('scheduled workflow run', {
              workflow: definition.name,
              at: new Date(at).toISOString(),
            });
            await this.deps.service.start(definition.name, {}, { trigger: 'schedule' }).catch((error: unknown) => {
              this.deps.logger.warn('a scheduled workflow could not start', {
                workflow: definition.name,
                error: String(error),
              });
            });
          }
          next = cron.nextRun(next);
        }
      }
    }
  }
}
