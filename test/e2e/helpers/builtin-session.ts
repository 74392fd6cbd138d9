/**
 * Serve mode on the built-in engine only, driven from Chromium: the setup the built-in e2e tests share. Scripted
 * GGUFs go into a fresh models folder, nothing listens on the Ollama address (the app must work without it), and
 * the engine runs one thread, since the machine's two cores are shared.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { generateScriptedModel, type ScriptedModelOptions } from '../../support/scripted-gguf/generate';
import type { Script } from '../../support/scripted-gguf/scripts';
import { launchChromium, openPage } from './browser';
import { startServeProcess, type ServeProcess } from './serve-process';

export interface BuiltinModelFile {
  /** The file's name in the models folder. */
  name: string;
  script: Script;
  options?: ScriptedModelOptions;
}

export interface BuiltinSession {
  dir: string;
  modelsDir: string;
  serve: ServeProcess;
  browser: Browser;
  /** The first tab, on the built-in connection. */
  page: Page;
}

export async function startBuiltinUi(
  prefix: string,
  files: BuiltinModelFile[],
  /** Writes more into the models folder before serve mode starts (e.g. a broken file). */
  prepare?: (modelsDir: string) => void,
): Promise<BuiltinSession> {
  const dir = mkdtempSync(join(tmpdir(), `firebrand-${prefix}-`));
  const modelsDir = join(dir, 'models');
  mkdirSync(modelsDir, { recursive: true });
  for (const f of files) copyFileSync(generateScriptedModel(f.script, f.options), join(modelsDir, f.name));
  prepare?.(modelsDir);
  process.env.FIREBRAND_BUILTIN_THREADS = '1';
  const serve = await startServeProcess({ dataDir: join(dir, 'data'), ollamaUrl: 'http://127.0.0.1:9', extraArgs: ['--models-dir', modelsDir] });
  const browser = await launchChromium();
  const page = await openPage(browser, { viewport: { width: 1280, height: 800 } });
  await page.goto(serve.url);
  await page.evaluate(() => window.firebrand.settings.update({ activeConnectionId: 'builtin' }));
  return { dir, modelsDir, serve, browser, page };
}

export async function stopBuiltinUi(s: BuiltinSession | undefined): Promise<void> {
  if (!s) return;
  await s.browser.close();
  await s.serve.stop();
  rmSync(s.dir, { recursive: true, force: true });
}
