/**
 * The e2e tests' and benches' Chromium (test/e2e/helpers/browser.ts) turns off the omnibox's WebUI popup with its own
 * `--disable-features`. Chromium keeps only the last such switch, so that one must still carry every feature
 * Playwright turns off with its own: otherwise an upgrade of playwright-core that adds one would silently lose it
 * (Playwright's list decides, for instance, that an http:// page is not upgraded and that paint is not held back).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LAUNCH_ARGS, PLAYWRIGHT_DISABLED_FEATURES } from '../e2e/helpers/browser';

/** The names in playwright-core's own `disabledFeatures = [ ... ]` (chromiumSwitches.ts, bundled). */
function playwrightDisabledFeatures(): string[] {
  const root = dirname(createRequire(import.meta.url).resolve('playwright-core/package.json'));
  const bundle = readFileSync(join(root, 'lib/coreBundle.js'), 'utf8');
  const list = /disabledFeatures = \[([\s\S]*?)\]\.filter\(Boolean\)/.exec(bundle);
  if (!list) throw new Error("playwright-core's disabledFeatures list was not found in lib/coreBundle.js: read its chromiumSwitches and update browser.ts");
  const body = list[1]!.replace(/\/\/.*$/gm, '');
  return [...body.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
}

describe("the tests' Chromium command line", () => {
  it("keeps every feature Playwright disables in the one --disable-features Chromium reads", () => {
    const ours = new Set(PLAYWRIGHT_DISABLED_FEATURES);
    const theirs = playwrightDisabledFeatures();
    expect(theirs.length).toBeGreaterThan(5);
    expect(theirs.filter((name) => !ours.has(name))).toEqual([]);
  });

  it('has one --disable-features, with the omnibox popup off', () => {
    const switches = LAUNCH_ARGS.filter((arg) => arg.startsWith('--disable-features='));
    expect(switches).toHaveLength(1);
    const names = switches[0]!.slice('--disable-features='.length).split(',');
    expect(names).toEqual(expect.arrayContaining([...PLAYWRIGHT_DISABLED_FEATURES, 'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup']));
  });
});
