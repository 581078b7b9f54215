import { describe, expect, it } from 'vitest';
import { launchChromium } from './launch-chromium.js';

describe('launchChromium', () => {
  it('explains how to install Chromium when the executable is missing, and never downloads one', async () => {
    const attempt = launchChromium({ executablePath: '/nonexistent/chromium' });
    await expect(attempt).rejects.toThrow('Chromium was not found at /nonexistent/chromium');
    await expect(attempt).rejects.toThrow('apt-get install -y chromium');
    await expect(attempt).rejects.toThrow('PLING_CHROMIUM');
  });
});
