// Starts the system's headless Chromium through playwright-core. The browser tests never download a browser:
// they use Debian's `chromium-headless-shell` or `chromium` package (or whatever PLING_CHROMIUM points at).
import { accessSync, constants } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Where Chromium is looked for when PLING_CHROMIUM is unset and the headless shell is not installed. */
export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * Debian's `chromium-headless-shell`: the same Chromium build (Blink, V8, the network stack) without the browser's
 * own user interface layer, the headless browser playwright itself runs by default. Preferred when installed: it
 * starts and loads pages for about a third of the CPU of `chromium --headless` (docs/decisions/test-suite-time.md),
 * and the browser tests are most of the suite's CPU.
 */
export const HEADLESS_SHELL_PATH = '/usr/bin/chromium-headless-shell';

/** Flags for a quiet, reproducible headless Chromium in containers and CI (no sandbox, no GPU, no phoning home). */
export const CHROMIUM_ARGS: readonly string[] = Object.freeze([
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]);

export interface LaunchChromiumOptions {
  /**
   * The Chromium (or Chrome) executable. Default: `$PLING_CHROMIUM`, else `/usr/bin/chromium-headless-shell` when
   * installed, else `/usr/bin/chromium`.
   */
  executablePath?: string;
  /** Flags beyond CHROMIUM_ARGS (e.g. a fake microphone: --use-fake-device-for-media-stream). */
  args?: readonly string[];
}

/**
 * The executable `launchChromium()` uses: `$PLING_CHROMIUM` when set and non-empty, else Debian's headless shell
 * when installed, else `/usr/bin/chromium`.
 */
export function chromiumExecutablePath(): string {
  if (process.env.PLING_CHROMIUM) return process.env.PLING_CHROMIUM;
  return executable(HEADLESS_SHELL_PATH) ? HEADLESS_SHELL_PATH : DEFAULT_CHROMIUM_PATH;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Launches headless Chromium. Close the returned browser (`browser.close()`) when done, or its processes stay.
 * Throws an Error that says how to install Chromium when the executable is missing, instead of playwright's stack.
 */
export async function launchChromium({
  executablePath = chromiumExecutablePath(),
  args = [],
}: LaunchChromiumOptions = {}): Promise<Browser> {
  if (!executable(executablePath)) {
    throw new Error(
      `Chromium was not found at ${executablePath}, and the Pling browser tests never download a browser. ` +
        'Install the system one with `apt-get install -y chromium-headless-shell` (or `chromium`; Debian/Ubuntu), ' +
        'or set PLING_CHROMIUM to the path of a Chromium or Chrome executable.',
    );
  }
  return chromium.launch({ executablePath, headless: true, args: [...CHROMIUM_ARGS, ...args] });
}
