// What the install-from-registry check publishes, and under which dist-tag (npm refuses a prerelease without one).
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { distTagOf, publicWorkspaces } from './public-workspaces.case.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

describe('publishing the workspace packages', () => {
  it('puts a release under latest and a prerelease under its name', () => {
    expect(distTagOf('0.1.0')).toBe('latest');
    expect(distTagOf('12.3.4')).toBe('latest');
    expect(distTagOf('0.1.0-alpha.2')).toBe('alpha');
    expect(distTagOf('1.0.0-RC.1')).toBe('rc');
    expect(distTagOf('1.0.0-0')).toBe('next');
  });

  it('lists every public package once, and no private one', () => {
    const packages = publicWorkspaces(root);
    const names = packages.map((entry) => entry.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(
      expect.arrayContaining(['@aalis/runtime', '@aalis/core', 'create-aalis', 'create-aalis-plugin']),
    );
    expect(names).not.toContain('@aalis/release');
    expect(names).not.toContain('@aalis/e2e');
    // The release's own packages go to latest, so that `npm create aalis@latest` finds this version.
    expect(packages.find((entry) => entry.name === 'create-aalis')?.tag).toBe('latest');
  });
});
