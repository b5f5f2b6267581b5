/**
 * The system Chromium (Debian's `chromium`, never a browser a tool downloads), launched
 * headless through playwright-core with WebGL2 on SwiftShader where there is no GPU. Shared by
 * the browser tests (test/browser/harness.ts re-exports it), `npm run bench` and
 * `npm run screenshot`.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const CHROMIUM_CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
];

/** Where Chromium is: `$CHROMIUM_PATH` (or `$CHROME_PATH`) first, then the usual system paths. */
export function findChromium(): string {
  const fromEnv = process.env.CHROMIUM_PATH ?? process.env.CHROME_PATH;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH=${fromEnv} does not exist`);
    return fromEnv;
  }
  const found = CHROMIUM_CANDIDATES.find((p) => existsSync(p));
  if (!found) {
    throw new Error(
      'No Chromium found for the browser tests. Install it with `sudo apt-get install -y chromium` ' +
        '(Debian/Ubuntu) or point CHROMIUM_PATH at a Chromium/Chrome binary. ' +
        `Looked in: ${CHROMIUM_CANDIDATES.join(', ')}`,
    );
  }
  return found;
}

/** Flags that make headless Chromium render WebGL2 in a sandboxed, offline CI machine. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  // WebGL on a machine without a GPU: ANGLE on SwiftShader (software Vulkan).
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--ignore-gpu-blocklist',
  // Do not throttle rAF or timers in a page that the headless window "hides".
  '--disable-renderer-backgrounding',
  '--disable-background-timer-throttling',
  '--disable-backgrounding-occluded-windows',
];

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: findChromium(), headless: true, args: CHROMIUM_ARGS });
}
