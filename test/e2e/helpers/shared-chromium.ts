/**
 * Vitest global setup for the browser tiers (e2e, real): one Chromium for the whole run, which each test file
 * connects to (helpers/browser.ts) instead of starting its own. Files stay apart: every page gets its own
 * browser context, and a file's `browser.close()` only drops its connection.
 */
import { launchSharedChromium, SHARED_CHROMIUM_ENV } from './browser';

export default async function setup(): Promise<() => Promise<void>> {
  const shared = await launchSharedChromium();
  process.env[SHARED_CHROMIUM_ENV] = shared.wsEndpoint;
  return async () => {
    delete process.env[SHARED_CHROMIUM_ENV];
    await shared.close();
  };
}
