import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Chromium's headless mode is the whole browser: every new window (each Playwright context) loads the omnibox's
 * popup as WebUI pages in a renderer of their own, about a second of CPU on that renderer's main thread and 0.6-0.8 s
 * more on its workers (traced), alongside the page under test. Firebrand's window (Electron) has no omnibox, and on a
 * 2-core machine that load slowed whatever a test or a bench did right after opening a page (bench/start counted it
 * as Firebrand's start).
 */
const OMNIBOX_WEBUI = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'];

/**
 * The features Playwright itself disables (playwright-core's chromiumSwitches.ts, 1.65.1). Chromium keeps only the
 * last `--disable-features` on its command line, and Playwright puts its own first, so ours must carry its list
 * too or every name on it would be enabled again. test/support/chromium-launch.test.ts checks this copy against
 * the installed playwright-core.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/** The switches added to Playwright's own. */
export const LAUNCH_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-quic',
  '--disable-sync',
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...OMNIBOX_WEBUI].join(',')}`,
];

const LAUNCH = { executablePath: CHROMIUM, headless: true, args: LAUNCH_ARGS };

/** Set by the test run's global setup (shared-chromium.ts): one browser for every file of the run. */
export const SHARED_CHROMIUM_ENV = 'FIREBRAND_TEST_CHROMIUM_WS';

/**
 * Debian's Chromium, headless, with the flags this machine's closed network needs. Inside a test run with a
 * shared browser this connects to it instead of starting one (a second or two per file on a busy machine); each
 * page still gets its own context, and `close()` ends only this connection.
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium (CI does this in .ci/run)`);
  const shared = process.env[SHARED_CHROMIUM_ENV];
  if (shared) return chromium.connect(shared);
  return chromium.launch(LAUNCH);
}

/** Starts the browser a whole test run shares; returns its endpoint and how to stop it. */
export async function launchSharedChromium(): Promise<{ wsEndpoint: string; close: () => Promise<void> }> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium (CI does this in .ci/run)`);
  const server = await chromium.launchServer(LAUNCH);
  return { wsEndpoint: server.wsEndpoint(), close: () => server.close() };
}

/** Playwright's own waits (actions, waitFor, waitForFunction) are backstops against a hang, not speed checks. */
export const BACKSTOP_MS = 60_000;

export async function openPage(browser: Browser, options?: BrowserContextOptions): Promise<Page> {
  const page = await browser.newPage(options);
  page.setDefaultTimeout(BACKSTOP_MS);
  return page;
}
