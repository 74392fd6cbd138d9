/**
 * The edit form refused a too-long edit with a reason and no way on: Make room was the message box's only, and its
 * plan was measured for the whole branch. Now the form offers the same choices, planned by main for the branch as it
 * will be after the edit (the edit goes with the plan's request), and a choice sends the edit: it takes the edited
 * message's place in the view, its card and answer after it. A choice that fails sends nothing, and the message being
 * edited stays in the view, so its form keeps the edit's text and files.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeEach, describe, expect, it } from 'vitest';
import type { EditSpec, RoomApplied, RoomPlan } from '../../src/shared/context-ipc';
import type { Turn } from '../../src/shared/turn';
import { useStore } from '../../src/renderer/store';
import { applyChoice, loadPlan, useRoom } from '../../src/renderer/store/context-room';
import { editChecks, type EditContext } from '../../src/renderer/components/turn/use-edit-checks';
import { RoomChoices } from '../../src/renderer/components/context/RoomChoices';
import { fakeApi } from './helpers/fake-api';

const MODEL = 'llama3.1:8b';
const turn = (id: string, role: Turn['role'], text: string, parentId: string | null, source?: string): Turn => ({
  id,
  conversationId: 'c1',
  parentId,
  role,
  blocks: [{ type: 'text', text }],
  meta: {},
  status: 'done',
  createdAt: 0,
  ...(source ? { source } : {}),
});
const u1 = turn('u1', 'user', 'Note one', null);
const a1 = turn('a1', 'assistant', 'Fine.', 'u1');
const u2 = turn('u2', 'user', 'Note two', 'a1');
const a2 = turn('a2', 'assistant', 'Fine.', 'u2');
const spec: EditSpec = { turnId: 'u2', text: 'A much longer note two', keepAttachments: [] };

const plan: RoomPlan = {
  model: MODEL,
  engine: 'ollama',
  need: 5000,
  counted: 'estimate',
  window: 4096,
  answerRoom: 256,
  over: true,
  pending: 'u2',
  larger: { kind: 'none', reason: 'The server sets the window.' },
  cuts: [{ turnId: 'u2', preview: 'A much longer note two', count: 2 }],
  cut: { keepFrom: 'u2', turnIds: ['u1', 'a1'], tokens: 1200, after: 3800, summaryBudget: 512, fitsDropped: true, fitsSummarized: true, latest: true },
  largest: [],
  noCut: null,
  newChat: true,
};

let planned: unknown[];
let applied: unknown[];
let answer: RoomApplied;

beforeEach(() => {
  planned = [];
  applied = [];
  (globalThis as { window?: unknown }).window = {
    firebrand: fakeApi({
      context: {
        plan: (req: unknown) => (planned.push(req), Promise.resolve(plan)),
        apply: (req: unknown) => (applied.push(req), Promise.resolve(answer)),
      },
    }),
  };
  useRoom.setState({ working: null, open: false });
  useStore.setState({ activeId: 'c1', selectedModel: MODEL, aliases: [], models: [{ name: MODEL }] as never, turns: [u1, a1, u2, a2], siblings: {}, notice: null, settings: null });
});

describe('make room from the edit form', () => {
  it('says when the window is what refuses the edit (the form then offers Make room), and not for other reasons', () => {
    const c: EditContext = {
      selected: MODEL,
      models: [{ name: MODEL, capabilities: ['completion'] }],
      aliases: [],
      turns: [u1, a1, u2, turn('a2', 'assistant', 'x'.repeat(40_000), 'u2')],
      activeId: 'c1',
      contextChoice: { contextWindow: 4096, source: 'fallback', reason: null },
      costs: {},
      measure: null,
    };
    // The answer after the edited message is not sent: a short edit fits, whatever follows it.
    expect(editChecks(u2, 'Short', [], c)).toEqual({ refusal: null, overWindow: false });
    const over = editChecks(u2, 'x'.repeat(20_000), [], c);
    expect(over.overWindow).toBe(true);
    expect(over.refusal).toMatch(/^Too long for llama3\.1:8b: .* Make room, or shorten the message\.$/);
    expect(editChecks(u2, '  ', [], c)).toEqual({ refusal: 'Type a message.', overWindow: false });
  });

  it('asks main for the plan of the branch after the edit: the edit goes with the request', async () => {
    expect(await loadPlan('c1', { edit: spec })).toBe(plan);
    expect(planned).toEqual([{ conversationId: 'c1', model: MODEL, edit: spec }]);
  });

  it('a choice sends the edit: it replaces the edited message in the view, with its card and answer after it', async () => {
    const sent = turn('u3', 'user', spec.text, 'a1');
    const card = turn('k1', 'system', 'Left out…', 'u3', 'context-dropped');
    const reply: Turn = { ...turn('a3', 'assistant', '', 'k1'), status: 'streaming' };
    answer = { conversationId: 'c1', userTurn: sent, card, answer: reply, ok: true };
    await applyChoice('c1', { kind: 'drop-oldest', keepFrom: 'u2' }, undefined, { turn: u2, spec });
    expect(applied).toEqual([{ conversationId: 'c1', model: MODEL, choice: { kind: 'drop-oldest', keepFrom: 'u2' }, edit: spec }]);
    expect(useStore.getState().turns.map((t) => t.id)).toEqual(['u1', 'a1', 'u3', 'k1', 'a3']);
    // The original stays one click away, the edit's sibling.
    expect(useStore.getState().siblings['u3']).toEqual({ ids: ['u2', 'u3'], index: 1 });
  });

  it('a summary that fails sends nothing: the message being edited stays in the view (its form keeps the edit), the card at the end', async () => {
    const failed = turn('k2', 'system', 'No summary was made…', 'a2', 'error');
    answer = { conversationId: 'c1', card: failed, answer: null, ok: false };
    const res = await applyChoice('c1', { kind: 'summarize', keepFrom: 'u2' }, undefined, { turn: u2, spec });
    expect(res.ok).toBe(false);
    expect(useStore.getState().turns.map((t) => t.id)).toEqual(['u1', 'a1', 'u2', 'a2', 'k2']);
    expect(useStore.getState().siblings).toEqual({});
  });

  it('the edit form’s choices say that they send the edit, and that the turns after it are not sent', () => {
    const html = renderToStaticMarkup(<RoomChoices conversationId="c1" state={{ status: 'ready', plan }} keepFrom={undefined} onKeepFrom={() => undefined} edit={{ turn: u2, spec, onSent: () => undefined }} />);
    expect(html).toContain('the messages after it are not sent');
    expect(html).toContain('Summarize them and send');
    expect(html).toContain('Your edit is its first message');
    // The message box's own panel says none of it.
    const box = renderToStaticMarkup(<RoomChoices conversationId="c1" state={{ status: 'ready', plan }} keepFrom={undefined} onKeepFrom={() => undefined} />);
    expect(box).not.toContain('and send');
    expect(box).not.toContain('context-edit-note');
  });
});
