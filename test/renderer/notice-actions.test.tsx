/**
 * Round 11 made a notice one message with what its button does (store/notice.ts). Before, the message and its Retry
 * were set apart, and these places set only the message: Retry on their notice repeated whatever had failed before
 * (or read the lists again), never their own action. Now a failed auto-compact setting, a failed cancel of a summary,
 * and a branch action asked with no model each say what their button does, whatever notice came before. A tool
 * call's answer that did not land is sent again by its Retry.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeEach, describe, expect, it } from 'vitest';
import { NoticeBanner } from '../../src/renderer/components/frame/NoticeBanner';
import { regenerate } from '../../src/renderer/store/branch-actions';
import { cancelSummary, setAutoCompact, useRoom } from '../../src/renderer/store/context-room';
import { fail, useStore } from '../../src/renderer/store/index';
import type { AutoCompactSetting } from '../../src/shared/context-ipc';
import type { Turn } from '../../src/shared/turn';
import { decideTool, type ToolDecisionRequest } from '../../src/renderer/store/tool-approval';
import { fakeApi } from './helpers/fake-api';

/** What the banner shows: its buttons' test ids, for the notice in the store. */
function bannerButtons(): string[] {
  const { notice } = useStore.getState();
  if (notice === null) return [];
  return [...renderToStaticMarkup(<NoticeBanner notice={notice} />).matchAll(/<button[^>]*data-testid="([^"]+)"/g)].map((m) => m[1]!);
}

/** The banner's Retry, as its click runs it: the notice's own action. */
function clickRetry(): void {
  const action = useStore.getState().notice?.action;
  if (action?.kind !== 'retry') throw new Error(`the notice offers no Retry of its action (${action?.kind ?? 'no notice'})`);
  useStore.setState({ notice: null });
  action.run();
}

let earlier: string[];
let autoCompactCalls: { kind: string; id: string; threshold: number | null }[];
let cancels: string[];
let failures: number;

beforeEach(() => {
  earlier = [];
  autoCompactCalls = [];
  cancels = [];
  failures = 1;
  const once = <T,>(value: T): Promise<T> => (failures-- > 0 ? Promise.reject(new Error('The disk is full, so this was not saved. Free some space, then try again.')) : Promise.resolve(value));
  (globalThis as { window?: unknown }).window = {
    firebrand: fakeApi({
      context: {
        setAutoCompact: (req: { kind: 'connection' | 'alias'; id: string; threshold: number | null }) => {
          autoCompactCalls.push(req);
          return once<AutoCompactSetting[]>([{ kind: req.kind, id: req.id, threshold: req.threshold ?? 0 }]);
        },
        cancel: ({ conversationId }: { conversationId: string }) => (cancels.push(conversationId), once({})),
      },
    }),
  };
  useRoom.setState({ autoCompact: null });
  useStore.setState({ notice: null, selectedModel: null, aliases: [], models: [] });
  // An older failure whose Retry must not be what the next notice's button does.
  fail(new Error('Could not attach notes.txt.'), () => earlier.push('attach notes.txt'));
});

describe('a notice after an earlier one with its own Retry', () => {
  it('a failed auto-compact setting: Retry sets it again, with the same threshold, not the earlier action', async () => {
    await setAutoCompact('connection', 'ollama', 0.8);
    expect(useStore.getState().notice?.message).toBe('The disk is full, so this was not saved. Free some space, then try again.');
    expect(bannerButtons()).toContain('banner-retry');
    clickRetry();
    await expect.poll(() => useRoom.getState().autoCompact).toEqual([{ kind: 'connection', id: 'ollama', threshold: 0.8 }]);
    expect(autoCompactCalls).toEqual([{ kind: 'connection', id: 'ollama', threshold: 0.8 }, { kind: 'connection', id: 'ollama', threshold: 0.8 }]);
    expect(earlier).toEqual([]);
  });

  it('a failed cancel of a summary: Retry cancels that conversation’s summary again', async () => {
    await cancelSummary('c7');
    expect(useStore.getState().notice?.message).toMatch(/^The disk is full/);
    clickRetry();
    await expect.poll(() => cancels).toEqual(['c7', 'c7']);
    expect(useStore.getState().notice).toBeNull();
    expect(earlier).toEqual([]);
  });

  it('Regenerate with no model chosen: "Choose a model first." offers the picker, and no Retry at all', async () => {
    const answer = { id: 't2', meta: { aliasId: 'gone' } } as unknown as Turn;
    await regenerate(answer);
    expect(useStore.getState().notice?.message).toBe('Choose a model first.');
    expect(bannerButtons()).toEqual(['notice-choose-model', 'banner-close']);
    // Nothing failed: a step to take, drawn as a warning and said politely, not an alert in the error's red.
    const html = renderToStaticMarkup(<NoticeBanner notice={useStore.getState().notice!} />);
    expect(html).toMatch(/^<div class="banner banner-warning" role="status" data-testid="notice" data-tone="warning">/);
  });
});

describe('a tool call’s answer that did not land', () => {
  it('is sent again, the same answer for the same call, by the notice’s Retry, and then lets the message box take the focus', async () => {
    const sent: unknown[] = [];
    let refusals = 1;
    (globalThis as { window?: unknown }).window = {
      firebrand: fakeApi({
        chat: {
          approveTool: (req: ToolDecisionRequest) => {
            sent.push(req);
            return refusals-- > 0 ? Promise.reject(new Error('Firebrand’s main process stopped answering; try again.')) : Promise.resolve({ applied: true });
          },
        },
      }),
    };
    let focused = 0;
    const req: ToolDecisionRequest = { conversationId: 'c1', turnId: 't1', toolCallId: 'call-1', decision: 'allow-conversation' };
    expect(await decideTool(req, () => focused++)).toBe(false);
    expect(useStore.getState().notice?.message).toContain('stopped answering');
    expect(bannerButtons()).toContain('banner-retry');
    expect(focused).toBe(0);
    clickRetry();
    await expect.poll(() => focused).toBe(1);
    expect(sent).toEqual([req, req]);
    expect(earlier).toEqual([]);
  });
});
