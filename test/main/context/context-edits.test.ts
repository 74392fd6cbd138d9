/**
 * What the cards of issue 21 do to a request, at the history level (src/main/engine/context-edits.ts): exactly the
 * turns a card names are replaced or left out, the conversation itself untouched.
 */
import type { JsonObject } from '../../../src/shared/json';
import { describe, expect, it } from 'vitest';
import { AutoCompactStore } from '../../../src/main/context/auto-compact-store';
import { card } from '../../../src/main/context/cards';
import { SettingsStore } from '../../../src/main/db/settings-store';
import { memoryDb } from '../db/helpers';
import { cutCandidates } from '../../../src/main/context/cut-plan';
import { sendableHistory } from '../../../src/main/engine/history';
import { pack, summaryPrompt, transcript } from '../../../src/main/engine/summary-lane';
import { SUMMARY_PROMPT_START } from '../../support/out-of-room-scenario';
import { summaryFailedMeta, summaryFailedText, waitingForRoom, type CompactionMeta, type DroppedMeta } from '../../../src/shared/context-edits';
import { turnText, type Block, type Turn } from '../../../src/shared/turn';

let clock = 0;
function turn(id: string, role: Turn['role'], blocks: Block[] | string, extra: Partial<Turn> = {}): Turn {
  return { id, conversationId: 'c', parentId: null, role, blocks: typeof blocks === 'string' ? [{ type: 'text', text: blocks }] : blocks, meta: {}, status: 'done', createdAt: clock++, ...extra };
}
const at = (id: string) => ({ id, conversationId: 'c', parentId: null, now: clock++ });
const summary = (id: string, covered: string[], text: string, extra: Partial<CompactionMeta> = {}) =>
  card('compaction', { covered, summary: text, tokensBefore: 100, tokensAfter: 50, counted: 'estimate', model: 'm', ...extra }, at(id));
const dropped = (id: string, meta: Partial<DroppedMeta>) => card('context-dropped', { turns: [], count: 0, items: [], tokens: 1, tokensBefore: 2, tokensAfter: 1, counted: 'estimate', ...meta }, at(id));
const ids = (turns: Turn[]) => turns.map((t) => t.id);

const chat = [turn('u1', 'user', 'one'), turn('a1', 'assistant', 'A1'), turn('u2', 'user', 'two'), turn('a2', 'assistant', 'A2'), turn('u3', 'user', 'three')];

describe('a summary card', () => {
  it('is sent in place of the turns it covers, at the first of them; the card itself is not sent where it sits', () => {
    const sent = sendableHistory([...chat, summary('s1', ['u1', 'a1'], 'They said one.')]);
    expect(ids(sent)).toEqual(['s1', 'u2', 'a2', 'u3']);
    expect(sent[0]).toMatchObject({ role: 'system', source: 'compaction', meta: {} });
    expect(turnText(sent[0]!)).toBe('Summary of the 2 messages before this point, written by m to fit the context window:\n\nThey said one.');
  });

  it('folds an earlier summary in: the later one is sent once, the earlier one not at all', () => {
    const s1 = summary('s1', ['u1', 'a1'], 'First.');
    const s2 = summary('s2', ['u1', 'a1', 'u2', 'a2'], 'Second.', { replaces: ['s1'] });
    const sent = sendableHistory([...chat.slice(0, 4), s1, chat[4]!, s2]);
    expect(ids(sent)).toEqual(['s2', 'u3']);
    expect(turnText(sent[0]!)).toContain('Second.');
  });

  // A long chat summarized again and again (auto-compact at each message, or Summarize chosen a third time): each
  // card was made by cutCandidates from what the request then held, as main makes it. The third card's own list of
  // replaced cards names only the second; the first still pointed at the second, which came back into the request
  // (three summaries in its system message), and each later card counted those messages again ("Summary of the 36
  // messages" in a chat of 12).
  it('summarized a third and fourth time: only the latest summary is sent, and it counts each message once', () => {
    const branch: Turn[] = [];
    const say = (n: number) => branch.push(turn(`u${n}`, 'user', `note ${n}`), turn(`a${n}`, 'assistant', `answer ${n}`));
    const summarizeBefore = (n: number) => {
      const cut = cutCandidates(branch).find((c) => c.keepFrom === `u${n}`)!;
      branch.push(summary(`s${n}`, cut.covered, `Up to ${n}.`, cut.summaries.length > 0 ? { replaces: cut.summaries } : {}));
    };
    for (let n = 1; n <= 6; n++) {
      say(n);
      if (n >= 3) summarizeBefore(n);
    }
    const sent = sendableHistory(branch);
    expect(ids(sent)).toEqual(['s6', 'u6', 'a6']);
    expect(turnText(sent[0]!)).toBe('Summary of the 10 messages before this point, written by m to fit the context window:\n\nUp to 6.');
    branch.push(turn('u7', 'user', 'note 7'));
    const next = cutCandidates(branch).find((c) => c.keepFrom === 'u7')!;
    expect(next.summaries).toEqual(['s6']);
    expect(next.covered).toEqual(['u1', 'a1', 'u2', 'a2', 'u3', 'a3', 'u4', 'a4', 'u5', 'a5', 'u6', 'a6']);
  });

  it('covering turns of another chat (a continued chat) is sent where it sits', () => {
    const root = summary('s0', ['old1', 'old2'], 'Earlier chat.', { from: { conversationId: 'old', title: 'Old' } });
    expect(ids(sendableHistory([root, turn('u9', 'user', 'go on')]))).toEqual(['s0', 'u9']);
  });

  it('a later cut past it covers the summary too, so its text is not sent twice', () => {
    const root = summary('s0', ['old1'], 'Earlier chat.', { from: { conversationId: 'old', title: 'Old' } });
    const branch = [root, ...chat];
    const cut = cutCandidates(branch).find((c) => c.keepFrom === 'u3')!;
    expect(ids(cut.before)).toEqual(['s0', 'u1', 'a1', 'u2', 'a2']);
    expect(cut.summaries).toEqual(['s0']);
    expect(cut.covered).toEqual(['old1', 'u1', 'a1', 'u2', 'a2']);
    const next = summary('s1', cut.covered, 'All of it.', { replaces: cut.summaries });
    expect(ids(sendableHistory([...branch, next]))).toEqual(['s1', 'u3']);
  });
});

describe('a left-out card', () => {
  it('leaves its turns out of what is sent, and only those', () => {
    expect(ids(sendableHistory([...chat, dropped('d1', { turns: ['u1', 'a1'], count: 2 })]))).toEqual(['u2', 'a2', 'u3']);
  });

  it('leaves a summary out with the oldest turns when the cut is past it', () => {
    const s1 = summary('s1', ['u1', 'a1'], 'First.');
    const branch = [...chat.slice(0, 4), s1, chat[4]!, dropped('d1', { turns: ['s1', 'u2', 'a2'], count: 3 })];
    expect(ids(sendableHistory(branch))).toEqual(['u3']);
  });

  it('replaces a left-out tool result by a note, so its call keeps an answer; an attachment leaves a note in the text', () => {
    const call: Block = { type: 'tool_call', id: 'call1', name: 'fetch_url', state: 'complete', argumentsRaw: '{}', arguments: {} };
    const file: Block = { type: 'attachment', id: 'f'.repeat(64), kind: 'text', name: 'big.txt', mime: 'text/plain', size: 10 };
    const branch = [
      turn('u1', 'user', [{ type: 'text', text: 'Read this' }, file]),
      turn('a1', 'assistant', [call]),
      turn('t1', 'tool', [{ type: 'tool_result', toolCallId: 'call1', name: 'fetch_url', content: 'x'.repeat(5000), isError: false }]),
      turn('a2', 'assistant', 'Done.'),
      dropped('d1', {
        items: [
          { turnId: 't1', kind: 'tool_result', toolCallId: 'call1', name: 'fetch_url', tokens: 1250 },
          { turnId: 'u1', kind: 'attachment', id: 'f'.repeat(64), name: 'big.txt', tokens: 3 },
        ],
      }),
    ];
    const sent = sendableHistory(branch);
    expect(ids(sent)).toEqual(['u1', 'a1', 't1', 'a2']);
    expect(sent[0]!.blocks).toEqual([{ type: 'text', text: 'Read this' }, { type: 'text', text: '\n\n[The attachment big.txt was left out of this request to fit the context window.]' }]);
    expect(sent[1]!.blocks).toEqual([call]);
    expect(sent[2]!.blocks).toEqual([{ type: 'tool_result', toolCallId: 'call1', name: 'fetch_url', content: '[The result of fetch_url was left out of this request to fit the context window.]', isError: false }]);
  });
});

describe('the message a refusal left waiting', () => {
  const refused = turn('r', 'system', 'no room', { source: 'context-refused' });
  const failed = turn('a3', 'assistant', [], { status: 'error' });
  it('is the last user turn when only a refusal and failed empty answers follow it', () => {
    expect(waitingForRoom([...chat, failed, refused])?.id).toBe('u3');
    expect(waitingForRoom([...chat, failed, refused, summary('s', ['u1'], 'x')])?.id).toBe('u3');
  });
  it('is none when the conversation was answered, or nothing was refused', () => {
    expect(waitingForRoom([...chat, turn('a3', 'assistant', 'ok')])).toBeUndefined();
    expect(waitingForRoom([...chat, failed])).toBeUndefined();
    expect(waitingForRoom([...chat, failed, refused, turn('a4', 'assistant', 'answered')])).toBeUndefined();
  });
});

describe('the summarizer lane’s input', () => {
  it('asks in words the stand-in servers recognise', () => {
    expect(summaryPrompt(300).startsWith(SUMMARY_PROMPT_START)).toBe(true);
    expect(summaryPrompt(300)).toContain('at most 300 words');
  });

  it('writes who said what, tool calls and their results, and packs it into parts that fit, in order', () => {
    const lines = transcript([chat[0]!, turn('a', 'assistant', [{ type: 'tool_call', id: 'c1', name: 'current_datetime', state: 'complete', argumentsRaw: '{"timezone":"UTC"}' }]), turn('t', 'tool', [{ type: 'tool_result', toolCallId: 'c1', name: 'current_datetime', content: '12:00', isError: false }])]);
    expect(lines).toEqual(['User: one', 'Assistant called the tool current_datetime with {"timezone":"UTC"}', 'The tool current_datetime returned: 12:00']);
    const parts = pack(['a'.repeat(30), 'b'.repeat(30), 'c'.repeat(75)], 64);
    // An entry longer than a part is cut in pieces; nothing is lost or reordered.
    expect(parts).toEqual([`${'a'.repeat(30)}\n\n${'b'.repeat(30)}`, 'c'.repeat(64), 'c'.repeat(11)]);
  });
});

describe('the auto-compact setting', () => {
  it('is off unless set; an alias’s own setting wins over its connection’s; off removes it; other settings are untouched', () => {
    const db = memoryDb();
    const store = new AutoCompactStore(db);
    expect(store.thresholdFor(undefined, 'ollama')).toBeUndefined();
    store.set('connection', 'ollama', 0.85);
    store.set('alias', 'a1', 0.75);
    expect(store.thresholdFor(undefined, 'ollama')).toBe(0.85);
    expect(store.thresholdFor('a1', 'ollama')).toBe(0.75);
    expect(store.thresholdFor('a2', 'ollama')).toBe(0.85);
    expect(store.set('alias', 'a1', null)).toEqual([{ kind: 'connection', id: 'ollama', threshold: 0.85 }]);
    expect(new SettingsStore(db).get()).not.toHaveProperty('context.autoCompact');
    db.close();
  });
});

describe('a failed summary card', () => {
  // Real-engines audit D4: a summary asked for under Make room said "the conversation is sent as it was"; nothing was.
  it('says the conversation is sent as it was only where auto-compact goes on to send it', () => {
    const meta = { reason: 'summary-failed', model: 'qwen3:8b', why: 'too-long' } as const;
    expect(summaryFailedText(meta)).toBe('No summary was made: the older turns do not fit qwen3:8b’s context window even in parts. Nothing was replaced; the conversation stays as it was.');
    expect(summaryFailedText({ ...meta, auto: true })).toMatch(/Nothing was replaced; the conversation is sent as it was\.$/);
  });

  // Context audit: auto-compact in a window the fixed parts all but fill summarized before every message.
  it('where no summary can make room, names what takes it and the ways on, and reads back from the stored meta', () => {
    const meta = { reason: 'summary-failed', model: 'qwen3:8b', why: 'no-room', auto: true, room: { tools: 1901, system: 120, window: 2048, threshold: 0.8, counted: 'server' } } as const;
    expect(summaryFailedText(meta)).toBe(
      'No summary was made: the tool definitions (1,901 tokens) and the system prompt (120 tokens) leave too little of this chat’s 2,048-token context window. ' +
        'No summary of the older turns can bring a request under the auto-compact threshold (80%, 1,638 tokens), so one would be written before every message. ' +
        'To make room, turn off some of the tools (this chat’s settings), shorten the system prompt or choose a larger context window. Nothing was replaced; the conversation is sent as it was.',
    );
    expect(summaryFailedMeta(JSON.parse(JSON.stringify(meta)) as JsonObject)).toEqual(meta);
    // A stored card of this kind without its numbers is not one (nothing to say).
    expect(summaryFailedMeta({ reason: 'summary-failed', model: 'm', why: 'no-room' })).toBeUndefined();
  });
});
