/**
 * The set-up of an e2e file whose tests share one Chromium and one replay server and each start their own serve
 * process on a new data folder (when the test opens the app, so it may set routes first). Registers the file's
 * hooks; the returned object holds what the running test uses. `replay` may be replaced by a test (a server stopped
 * and started again on its port): the one held at the end is closed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { startReplayServer, type ReplayRoute, type ReplayServer } from '../../replay-server/replay-server';
import { launchChromium, openPage } from './browser';
import { startServeProcess, type ServeProcess } from './serve-process';

export interface ServeSuite {
  browser: Browser;
  replay: ReplayServer;
  /** A new page per test. */
  page: Page;
  /** A new data folder per test, removed after it. */
  dataDir: string;
  /** The test's serve process, once `openApp` started it; stopped after the test. */
  serve: ServeProcess | undefined;
  /** Starts serve mode on the test's data folder against `ollamaUrl` (the replay server) and opens it in the page. */
  openApp(ollamaUrl?: string): Promise<void>;
}

/** `routes`: what the replay server answers at the start of each test (as it was left, where absent). */
export function serveSuite(options: { routes?: () => ReplayRoute[] } = {}): ServeSuite {
  const suite = {
    serve: undefined,
    async openApp(ollamaUrl?: string) {
      suite.serve = await startServeProcess({ dataDir: suite.dataDir, ollamaUrl: ollamaUrl ?? suite.replay.url });
      await suite.page.goto(suite.serve.url);
    },
  } as ServeSuite;
  beforeAll(async () => {
    suite.browser = await launchChromium();
    suite.replay = await startReplayServer();
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.replay?.close();
  });
  beforeEach(async () => {
    suite.dataDir = mkdtempSync(join(tmpdir(), 'firebrand-e2e-'));
    if (options.routes) suite.replay.setRoutes(options.routes());
    suite.replay.requests.length = 0;
    suite.page = await openPage(suite.browser);
  });
  afterEach(async () => {
    await suite.page?.close();
    await suite.serve?.stop();
    suite.serve = undefined;
    rmSync(suite.dataDir, { recursive: true, force: true });
  });
  return suite;
}
