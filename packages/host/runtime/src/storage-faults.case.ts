// Test seam: a host's input store failing as on a full disk, for tests of "acknowledged means stored" through the
// product (docs/decisions/platform-acknowledgements.md). A temporary trigger on this host's own SQLite connection
// refuses the next inserts into the hand-over queue with SQLite's full-disk message; nothing else is touched.
import { storage } from '@aalis/api-storage';
import type { RunningAalis } from './start-aalis.js';

let made = 0;

export interface InputStoreFault {
  /** How many inputs were refused so far. */
  failed(): number;
  /** Removes the fault. */
  restore(): void;
}

/** The next `times` inputs handed to the agent cannot be stored (AALIS_AGENT_INPUT_NOT_STORED); later ones can. */
export function failInputStores(aalis: RunningAalis, times = 1): InputStoreFault {
  const connection = aalis.app.services.selected(storage)!.impl.database().connection;
  const name = `aalis_test_fail_input_${++made}`;
  let left = times;
  let failed = 0;
  connection.function(name, { deterministic: false }, () => {
    if (left <= 0) return 0;
    left--;
    failed++;
    return 1;
  });
  connection.exec(
    `CREATE TEMP TRIGGER ${name} BEFORE INSERT ON main.aalis_hand_over WHEN ${name}() = 1
     BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`,
  );
  return {
    failed: () => failed,
    restore: () => connection.exec(`DROP TRIGGER IF EXISTS ${name}`),
  };
}

/** How many inputs with this text are in the host's hand-over queue (each stored input is one row). */
export function storedInputs(aalis: RunningAalis, text: string): number {
  const connection = aalis.app.services.selected(storage)!.impl.database().connection;
  const rows = connection.prepare('SELECT payload FROM aalis_hand_over').all() as { payload: string }[];
  return rows.filter((row) => row.payload.includes(text)).length;
}
