/**
 * Edit and resend ran none of the message box's checks: an edit sent an image to a model that cannot see (the answer
 * failed), a message over the window (a refusal card), a file still being read or one that could not be read. The
 * edit form now asks what the message box asks (send-checks.ts) and says it in the same words.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { AttachmentInspection } from '../../src/shared/ipc';
import type { AttachmentBlock, Turn } from '../../src/shared/turn';
import { useStore } from '../../src/renderer/store';
import type { CostState } from '../../src/renderer/store/attachment-costs';
import { editChecks, editRefusal, type EditContext } from '../../src/renderer/components/turn/use-edit-checks';
import { messageRefusal } from '../../src/renderer/components/composer/send-checks';
import { editAndResend } from '../../src/renderer/store/branch-actions';
import { FirebrandError } from '../../src/shared/ipc';
import { fakeApi } from './helpers/fake-api';

const MODEL = 'llama3.2:3b';
const block = (name: string, kind: AttachmentBlock['kind'], id: string): AttachmentBlock => ({ type: 'attachment', id: id.repeat(64), kind, name, mime: kind === 'image' ? 'image/png' : 'text/plain', size: 1 });
const inspection = (tokens: number, error: string | null = null): AttachmentInspection => ({ tokens, tokensSource: 'estimate', pageCount: null, pageChars: null, textChars: tokens * 4, pages: null, error, image: null });
const keyOf = (b: AttachmentBlock) => `${b.id}|all|${MODEL}|`;
const turn = (id: string, role: Turn['role'], text: string): Turn => ({ id, conversationId: 'c1', parentId: null, role, blocks: [{ type: 'text', text }], meta: {}, status: 'done', createdAt: 0 });

const notes = block('notes.txt', 'text', 'a');
const photo = block('photo.png', 'image', 'b');
const first = turn('u1', 'user', 'Hello');
const answer = turn('a1', 'assistant', 'Hi there.');
const edited = turn('u2', 'user', 'Summarise this');

function context(costs: Record<string, CostState> = {}, capabilities = ['completion']): EditContext {
  return {
    selected: MODEL,
    models: [{ name: MODEL, capabilities }],
    aliases: [],
    turns: [first, answer, edited, turn('a2', 'assistant', 'x'.repeat(40_000))],
    activeId: 'c1',
    contextChoice: { contextWindow: 4096, source: 'fallback', reason: null },
    costs,
    measure: { value: { parts: { system: 10, tools: 0 } }, base: { conversationId: 'c1' } },
  };
}

beforeEach(() => {
  useStore.setState({ selectedModel: MODEL, settings: null });
});

describe('the edit form’s checks before Send', () => {
  it('refuses an image for a model that cannot read images, as the message box does', () => {
    const costs = { [keyOf(photo)]: { status: 'done', inspection: inspection(256) } as const };
    const words = editRefusal(edited, 'What is this?', [photo], context(costs));
    expect(words).toBe('llama3.2:3b cannot read images. Pick a vision model or remove the image.');
    expect(words).toBe(messageRefusal({ text: 'What is this?', items: [photo], stateOf: (b) => costs[keyOf(b)], modelName: MODEL, noVision: true, overReason: null }));
    // A model that can see, or one whose capabilities are unknown, takes it.
    expect(editRefusal(edited, 'What is this?', [photo], context(costs, ['completion', 'vision']))).toBeNull();
  });

  // llama-server counts a file with the model's own tokenizer (the chip says "2K tokens", exact), and its other
  // counts taught the page that this model's tokens run 7 to the character rule's 1: the exact count was scaled by
  // that too, so a 2,000-token file was "about 14K tokens" and refused in a 4K window (the message box said
  // "notes.txt needs about 28K tokens; 1.6K are left" of a file the server counted at about 4K).
  it('counts a file the server counted as the server did, not scaled again by what it learned of the model', () => {
    const counted = (tokens: number): CostState => ({ status: 'done', inspection: { ...inspection(tokens), tokensSource: 'exact', textChars: tokens } });
    const onServer = (tokens: number): EditContext => ({ ...context({ [keyOf(notes)]: counted(tokens) }), contextChoice: { contextWindow: 4096, source: 'server', reason: null, estimateRatio: 7 } });
    expect(editRefusal(edited, 'Read my notes', [notes], onServer(2_000))).toBeNull();
    expect(editRefusal(edited, 'Read my notes', [notes], onServer(5_000))).toMatch(/^notes\.txt needs about 4\.9K tokens; 3\.\dK are left in the 4K-token window\./);
  });

  it('refuses a message longer than the window with the message box’s reason; the turns after the edited one do not count', () => {
    expect(editRefusal(edited, 'Short again', [], context())).toBeNull();
    expect(editRefusal(edited, 'x'.repeat(20_000), [], context())).toMatch(/^Too long for llama3\.2:3b: about .* tokens, its window holds 4[.,]?\d*K?.*\. Make room, or shorten the message\.$/);
  });

  // Wording: a short edit after a long chat was told "shorten the message", which could not make it fit.
  it('says the chat before a short edit fills the window, and where room is made in it', () => {
    const long = { ...context(), turns: [first, turn('a1', 'assistant', 'y'.repeat(17_000)), edited] };
    expect(editRefusal(edited, 'Short again', [], long)).toMatch(
      /^Too long for llama3\.2:3b: about .* tokens, its window holds 4[.,]?\d*K?.*\. Your message would fit on its own: the chat so far fills the window\. Make room in the chat \(Make room…\)\.$/,
    );
  });

  // Wording: the chat's tools, sent with every message, filled the window and the edit was told to make room in the chat.
  it('names the chat’s tools where the chat before the edit and the edit fit without them', () => {
    const tools = { ...context(), measure: { value: { parts: { system: 10, tools: 3_900 } }, base: { conversationId: 'c1' } } };
    expect(editRefusal(edited, 'A short question. '.repeat(60), [], tools)).toMatch(
      /^Too long for llama3\.2:3b: .*\. The tools this chat offers take about 3,900 tokens of the window: turn some off in Settings → Tools, or choose a larger window\.$/,
    );
  });

  // The ratio is learned from other text (the tool definitions): a CJK edit scaled by it fit, and was then refused.
  it('takes main’s count of the edited text where it came: a text the ratio says fits is too long as counted', () => {
    const text = '山'.repeat(800);
    const c = { ...context(), contextChoice: { contextWindow: 4096, source: 'fallback' as const, reason: null, estimateRatio: 2 } };
    expect(editChecks(edited, text, [], c)).toMatchObject({ refusal: null, overWindow: false });
    const counted = editChecks(edited, text, [], { ...c, counted: { text, tokens: 2_400, base: 1_900 } });
    expect(counted.overWindow).toBe(true);
    expect(counted.refusal).toMatch(/too long|context window/i);
    // A count of another text (typed since) does not stand for this one.
    expect(editChecks(edited, text, [], { ...c, counted: { text: 'older', tokens: 2_400, base: 1_900 } }).overWindow).toBe(false);
  });

  it('names a file that is still being read, and one that cannot be read', () => {
    expect(editRefusal(edited, 'Summarise', [notes], context({ [keyOf(notes)]: { status: 'reading' } }))).toBe('Reading notes.txt…');
    expect(editRefusal(edited, 'Summarise', [notes], context())).toBe('Reading notes.txt…');
    expect(editRefusal(edited, 'Summarise', [notes], context({ [keyOf(notes)]: { status: 'done', inspection: inspection(0, 'The file is damaged.') } }))).toBe(
      'notes.txt cannot be read (see its chip). Remove it to send.',
    );
    expect(editRefusal(edited, 'Summarise', [notes], context({ [keyOf(notes)]: { status: 'failed', message: 'Timed out.' } }))).toBe('notes.txt cannot be read (see its chip). Remove it to send.');
    expect(editRefusal(edited, 'Summarise', [notes], context({ [keyOf(notes)]: { status: 'done', inspection: inspection(12) } }))).toBeNull();
  });

  it('asks for a message when nothing is left of it', () => {
    expect(editRefusal(edited, '   ', [], context())).toBe('Type a message.');
  });
});

// What only main checks (a message of more than 32 files, an answer still being written, a tool request waiting):
// its refusal is the notice, in main's words, and the edit form keeps the edit (editAndResend answers false, so the
// form stays open with its text and files); the notice's Retry sends the same edit again.
describe('an edit main refuses', () => {
  it('says main’s words, is kept, and is sent again as it was by Retry', async () => {
    const sent: unknown[] = [];
    (globalThis as { window?: unknown }).window = {
      firebrand: fakeApi({
        chat: {
          editAndResend: (req: unknown) => {
            sent.push(req);
            return Promise.reject(new FirebrandError({ code: 'invalid-payload', message: 'A message can carry at most 32 files; this one would have 33. Remove some first.' }));
          },
        },
      }),
    };
    useStore.setState({ notice: null, activeId: 'c1', aliases: [], models: [{ name: MODEL }] as never });
    expect(await editAndResend(edited, 'Summarise these', { keep: [0], added: [notes] }, undefined)).toBe(false);
    expect(useStore.getState().notice?.message).toBe('A message can carry at most 32 files; this one would have 33. Remove some first.');
    const action = useStore.getState().notice?.action;
    expect(action?.kind).toBe('retry');
    if (action?.kind === 'retry') action.run();
    await expect.poll(() => sent.length).toBe(2);
    expect(sent[1]).toEqual(sent[0]);
    expect(sent[0]).toMatchObject({ turnId: 'u2', text: 'Summarise these', keepAttachments: [0], attachments: [notes] });
  });
});
