/**
 * Time from a click to the paint that first shows an element: the click is dispatched inside the page (no
 * round trip in the figure), a MutationObserver notices the element, and the time is taken right after the
 * next frame is painted (a message posted from requestAnimationFrame runs after that frame).
 */
import type { Page } from 'playwright-core';

/** Clicks `click` and resolves with the ms until `appears` is on screen. */
export async function timeOpen(page: Page, click: string, appears: string, timeoutMs = 30_000): Promise<number> {
  return page.evaluate(`new Promise((resolve, reject) => {
    const appears = ${JSON.stringify(appears)};
    const now = () => performance.now();
    const timer = setTimeout(() => { observer.disconnect(); reject(new Error('nothing matching ' + appears + ' appeared')); }, ${timeoutMs});
    const painted = () => requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => { clearTimeout(timer); resolve(now() - t0); };
      channel.port2.postMessage(0);
    });
    const observer = new MutationObserver(() => {
      if (!document.querySelector(appears)) return;
      observer.disconnect();
      painted();
    });
    observer.observe(document.documentElement, { subtree: true, childList: true });
    const target = document.querySelector(${JSON.stringify(click)});
    if (!target) { clearTimeout(timer); observer.disconnect(); reject(new Error('nothing to click: ' + ${JSON.stringify(click)})); return; }
    const t0 = now();
    target.click();
  })`);
}

/** The page's live JS heap after a full collection (CDP), in MB. */
export async function heapMb(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize } = await cdp.send('Runtime.getHeapUsage');
    return usedSize / 1024 / 1024;
  } finally {
    await cdp.detach();
  }
}

/**
 * Waits until `expression` is true in the page, polled by the page itself. Unlike Playwright's locators and
 * waitForFunction, it injects no script of Playwright's into the page (each such world holds about half a MB of
 * heap, and evaluating it took 13-23 ms of the page's main thread in a start), so a heap read afterwards is the
 * page's own, as in the bare floor page, and a time taken with it is not the page's time plus Playwright's.
 * `poll` is 'raf' (each frame, for times) or ms between polls.
 */
export async function waitInPage(page: Page, expression: string, timeoutMs = 30_000, poll: 'raf' | number = 50): Promise<void> {
  const next = poll === 'raf' ? 'requestAnimationFrame(check)' : `setTimeout(check, ${poll})`;
  await page.evaluate(`new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('still false: ' + ${JSON.stringify(expression)})), ${timeoutMs});
    const check = () => { if (${expression}) { clearTimeout(timer); resolve(); } else ${next}; };
    check();
  })`);
}
