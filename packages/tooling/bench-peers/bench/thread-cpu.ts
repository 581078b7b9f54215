// For `npm run bench peers`: CPU of this process split into the main thread and every other thread (V8's GC and
// compiler helpers, libuv's pool), read from /proc/self/task on Linux; elsewhere nothing is reported. Ticks are the
// kernel's clock ticks (usually 10 ms), so only sums over many rounds mean anything.
import { readdirSync, readFileSync } from 'node:fs';

export interface ThreadTicks {
  main: number;
  other: number;
}

/** utime + stime of each thread so far, as main and the rest; undefined where /proc is not there. */
export function threadTicks(): ThreadTicks | undefined {
  let tasks: string[];
  try {
    tasks = readdirSync('/proc/self/task');
  } catch {
    return undefined;
  }
  const ticks: ThreadTicks = { main: 0, other: 0 };
  for (const task of tasks) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
    } catch {
      continue; // the thread ended meanwhile
    }
    // Fields after the command name (which may hold spaces): state is the first, utime the 12th, stime the 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const used = Number(fields[11]) + Number(fields[12]);
    if (task === String(process.pid)) ticks.main += used;
    else ticks.other += used;
  }
  return ticks;
}

/** Sums the ticks spent between pairs of readings, per subject. */
export class ThreadShares {
  private readonly totals = new Map<string, ThreadTicks>();

  add(subject: string, before: ThreadTicks | undefined, after: ThreadTicks | undefined): void {
    if (!before || !after) return;
    const total = this.totals.get(subject) ?? { main: 0, other: 0 };
    total.main += after.main - before.main;
    total.other += after.other - before.other;
    this.totals.set(subject, total);
  }

  /** "main 71% / other threads 29%" of the subject's ticks, or undefined when none were read. */
  describe(subject: string): string | undefined {
    const total = this.totals.get(subject);
    if (!total || total.main + total.other === 0) return undefined;
    const share = (part: number) => `${Math.round((100 * part) / (total.main + total.other))}%`;
    return `main thread ${share(total.main)} / other threads ${share(total.other)}`;
  }
}
