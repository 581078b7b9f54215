// What the console may ask npm to install, and how a spec is shown: npm names with versions, ranges and tags,
// https tarballs and absolute tarball paths pass; options, relative paths, directories, git URLs and control
// characters do not; a URL is shown without its credentials.
import { describe, expect, it } from 'vitest';
import { isInstallable, shownSpec } from './plugin-installer.js';

describe('isInstallable', () => {
  it.each([
    'aalis-plugin-weather',
    'aalis-plugin-weather@1.2.3',
    'aalis-plugin-weather@^1.2.0',
    'aalis-plugin-weather@next',
    '@scope/aalis-plugin@>=1.0.0 <2',
    'https://registry.example.com/aalis-plugin-weather/-/aalis-plugin-weather-1.0.0.tgz',
    '/srv/plugins/aalis-plugin-weather-1.0.0.tgz',
    'file:/srv/plugins/aalis-plugin-weather-1.0.0.tar.gz',
  ])('accepts %s', (spec) => {
    expect(isInstallable(spec)).toBe(true);
  });

  it.each([
    '',
    '--global',
    '-g',
    'Upper-Case',
    'two words',
    './relative.tgz',
    '../up.tgz',
    '/srv/plugins/a-directory',
    'file:../x.tgz',
    'git+ssh://git@example.com/x.git',
    'github:user/repo',
    'http://insecure.example.com/x.tgz',
    'name\nnext-line',
    'x'.repeat(1001),
  ])('refuses %j', (spec) => {
    expect(isInstallable(spec)).toBe(false);
  });
});

describe('shownSpec', () => {
  it('drops the credentials and query of a URL and leaves names and paths as they are', () => {
    expect(shownSpec('https://user:s3cret@registry.example.com/x/-/x-1.0.0.tgz?token=abc')).toBe(
      'https://registry.example.com/x/-/x-1.0.0.tgz',
    );
    expect(shownSpec('aalis-plugin-weather@^1.2.0')).toBe('aalis-plugin-weather@^1.2.0');
    expect(shownSpec('/srv/x-1.0.0.tgz')).toBe('/srv/x-1.0.0.tgz');
  });
});
