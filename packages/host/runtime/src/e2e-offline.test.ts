// End to end: the offline demo model through the real `aalis chat` (no model configured) — what it tells a user to
// type works when typed into the terminal chat.
import { afterEach, describe, expect, it } from 'vitest';
import { E2E_TIMEOUT_MS, runAalis, temporaryWorkspace } from './spawn-aalis.case.js';

const workspaces: Array<{ remove(): void }> = [];
afterEach(() => {
  for (const workspace of workspaces.splice(0)) workspace.remove();
});

describe('aalis chat with the offline demo model', () => {
  it(
    'the way to write a call that it suggests after malformed arguments calls the tool when typed',
    async () => {
      const created = temporaryWorkspace('locale: en\n');
      workspaces.push(created);
      const first = await runAalis({
        cwd: created.dir,
        args: ['chat'],
        input: 'call: calculator {"expression": 6*7\n',
      });
      expect(first.code).toBe(0);
      const suggested = /Write: (.+)$/m.exec(first.stdout)?.[1];
      expect(suggested, first.stdout).toBeDefined();
      const typed = suggested!.replace('"arg":"value"', '"expression":"6*7"');
      const second = await runAalis({ cwd: created.dir, args: ['chat'], input: `${typed}\n` });
      expect(second.code).toBe(0);
      expect(second.stdout).toBe('(Offline demo model) The tools returned:\n- calculator: 42\n');
    },
    E2E_TIMEOUT_MS,
  );
});
