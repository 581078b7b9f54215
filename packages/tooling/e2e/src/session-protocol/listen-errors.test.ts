// Conformance: `aalis serve` with an AALIS_WEBUI_HOST that is not an address of this machine refuses to run and says
// to fix the host (not the port, which is free).
import { describe, expect, it } from 'vitest';
import { runAalis, temporaryWorkspace } from '../../../../host/runtime/src/spawn-aalis.case.js';

describe('listening', () => {
  it('a host that does not resolve is named as the thing to fix', async () => {
    const workspace = temporaryWorkspace();
    try {
      const run = await runAalis({
        cwd: workspace.dir,
        args: ['serve'],
        env: { AALIS_WEBUI_HOST: 'no-such-host.invalid', AALIS_WEBUI_PORT: '0' },
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('no-such-host.invalid');
      expect(run.stderr).toContain('AALIS_WEBUI_HOST');
      expect(run.stderr).not.toContain('free port');
    } finally {
      workspace.remove();
    }
  }, 60_000);
});
