import { afterEach, describe, expect, it } from 'vitest';
import { chromiumExecutablePath, launchChromium } from './launch-chromium.js';

describe('launchChromium', () => {
  const saved = process.env.PLING_CHROMIUM;
  afterEach(() => {
    if (saved === undefined) delete process.env.PLING_CHROMIUM;
    else process.env.PLING_CHROMIUM = saved;
  });

  it('explains how to install Chromium when the executable is missing, and never downloads one', async () => {
    const attempt = launchChromium({ executablePath: '/nonexistent/chromium' });
    await expect(attempt).rejects.toThrow('Chromium was not found at /nonexistent/chromium');
    await expect(attempt).rejects.toThrow('apt-get install -y chromium-headless-shell');
    await expect(attempt).rejects.toThrow('PLING_CHROMIUM');
  });

  it('takes PLING_CHROMIUM over the Debian executables, and one of those without it', () => {
    process.env.PLING_CHROMIUM = '/opt/chrome/chrome';
    expect(chromiumExecutablePath()).toBe('/opt/chrome/chrome');
    delete process.env.PLING_CHROMIUM;
    expect(['/usr/bin/chromium-headless-shell', '/usr/bin/chromium']).toContain(chromiumExecutablePath());
  });
});
