/**
 * Vision audit: after a chat with an image, a switch to a model that cannot read images sent the image as a note in
 * its place ("[image photo.png: not sent, …]"), while the chat still showed it and nothing said the model would not
 * see it. The message box now counts those images as Assemble reads the branch and says so, before Send.
 */
import { describe, expect, it } from 'vitest';
import type { AttachmentBlock, Block, Turn } from '../../src/shared/turn';
import type { JsonObject } from '../../src/shared/json';
import { imagesAnswerDidNotSee, imagesAnswerWentWithout, unseenImages, unseenImagesNote } from '../../src/renderer/components/composer/unseen-images';

const image = (name: string, id: string, toolCallId?: string): AttachmentBlock => ({ type: 'attachment', id: id.repeat(64), kind: 'image', name, mime: 'image/png', size: 1, ...(toolCallId ? { toolCallId } : {}) });
const doc: AttachmentBlock = { type: 'attachment', id: 'd'.repeat(64), kind: 'document', name: 'q3.pdf', mime: 'application/pdf', size: 1 };
const turn = (id: string, role: Turn['role'], blocks: Block[], source?: string, meta: JsonObject = {}): Turn => ({ id, conversationId: 'c1', parentId: null, role, blocks, meta, status: 'done', createdAt: 0, ...(source ? { source } : {}) });
const text = (t: string): Block => ({ type: 'text', text: t });

const photo = image('photo.png', 'a');
const chart = image('chart.png', 'b');
const branch = [
  turn('u1', 'user', [text('What is in this?'), photo, doc]),
  turn('a1', 'assistant', [text('A cat.')]),
  turn('u2', 'user', [text('And this?'), chart]),
  turn('a2', 'assistant', [text('A chart.')]),
];

describe('images a model that cannot read images will not get', () => {
  it('counts the images of the branch, not its documents, and says so calmly with what to do', () => {
    expect(unseenImages(branch).map((b) => b.name)).toEqual(['photo.png', 'chart.png']);
    expect(unseenImagesNote(2, 'llama3.2:3b')).toBe("The 2 images earlier in this chat won't be sent: llama3.2:3b cannot read images. Choose a model that can, or send without them.");
    expect(unseenImagesNote(1, 'llama3.2:3b')).toBe("The image earlier in this chat won't be sent: llama3.2:3b cannot read images. Choose a model that can, or send without it.");
  });

  it('says nothing for a branch without images (another branch, a new chat)', () => {
    expect(unseenImages([turn('u1', 'user', [text('Hi'), doc]), turn('a1', 'assistant', [text('Hello.')])])).toEqual([]);
    expect(unseenImages([])).toEqual([]);
    expect(unseenImagesNote(0, 'llama3.2:3b')).toBeNull();
  });

  it("counts an image a tool returned, as Assemble leaves it out too, but not an assistant's stray attachment", () => {
    const shot = image('screenshot.png', 'c', 'call_0');
    const tools = [...branch, turn('t1', 'tool', [{ type: 'tool_result', toolCallId: 'call_0', name: 'screenshot', content: 'ok', isError: false }, shot]), turn('x1', 'assistant', [image('odd.png', 'e')])];
    expect(unseenImages(tools).map((b) => b.name)).toEqual(['photo.png', 'chart.png', 'screenshot.png']);
  });

  it('leaves out the images a summary stands for or the user left out of the request: those are not sent at all', () => {
    const summary = turn('s1', 'system', [text('')], 'compaction', { covered: ['u1', 'a1'], summary: 'A cat.', tokensBefore: 900, tokensAfter: 100, model: 'llava' });
    expect(unseenImages([...branch, summary]).map((b) => b.name)).toEqual(['chart.png']);
    const droppedItem = turn('d1', 'system', [text('')], 'context-dropped', {
      turns: [],
      count: 0,
      items: [{ turnId: 'u2', kind: 'attachment', id: chart.id, name: 'chart.png', tokens: 768 }],
      tokens: 768,
      tokensBefore: 2000,
      tokensAfter: 1232,
    });
    expect(unseenImages([...branch, droppedItem]).map((b) => b.name)).toEqual(['photo.png']);
    const droppedTurns = turn('d2', 'system', [text('')], 'context-dropped', { turns: ['u1', 'a1'], count: 2, items: [], tokens: 800, tokensBefore: 2000, tokensAfter: 1200 });
    expect(unseenImages([...branch, droppedTurns]).map((b) => b.name)).toEqual(['chart.png']);
  });

  it('counts for an answer the images before it only: an answer from before the image was written without none', () => {
    expect(imagesAnswerDidNotSee(branch, 'a2')).toBe(2);
    expect(imagesAnswerDidNotSee(branch, 'a1')).toBe(1);
    expect(imagesAnswerDidNotSee([turn('u0', 'user', [text('Hi')]), turn('a0', 'assistant', [text('Hello.')]), ...branch], 'a0')).toBe(0);
    expect(imagesAnswerDidNotSee(branch, 'elsewhere')).toBe(0);
  });

  it('counts for each answer as the branch up to it reads, with cards that take images back before and after it', () => {
    const summary = turn('s1', 'system', [text('')], 'compaction', { covered: ['u1', 'a1'], summary: 'A cat.', tokensBefore: 900, tokensAfter: 100, model: 'llava' });
    const dropChart = turn('d1', 'system', [text('')], 'context-dropped', { turns: [], count: 0, items: [{ turnId: 'u2', kind: 'attachment', id: chart.id, name: 'chart.png', tokens: 768 }], tokens: 768, tokensBefore: 2000, tokensAfter: 1232 });
    const shot = image('screenshot.png', 'c', 'call_0');
    const long = [
      ...branch,
      summary,
      turn('u3', 'user', [text('Two more'), image('x.png', 'f'), image('y.png', '1')]),
      turn('a3', 'assistant', [text('Seen.')]),
      dropChart,
      turn('t1', 'tool', [{ type: 'tool_result', toolCallId: 'call_0', name: 'screenshot', content: 'ok', isError: false }, shot]),
      turn('a4', 'assistant', [text('Done.')]),
    ];
    for (const answer of ['a1', 'a2', 'a3', 'a4']) {
      const at = long.findIndex((t) => t.id === answer);
      expect(imagesAnswerDidNotSee(long, answer), answer).toBe(unseenImages(long.slice(0, at)).length);
    }
    expect(['a1', 'a2', 'a3', 'a4'].map((a) => imagesAnswerDidNotSee(long, a))).toEqual([1, 2, 3, 3]);
  });

  // The last closing note's gaps: the mark looked the answer's model up by name in the model list of the connection
  // in use now, so after a switch of connections an old answer's mark could be wrong or gone. It reads what main
  // recorded as the answer's request was made; only an answer from before the record asks the list.
  it("reads an answer's own record of the images it went without, whatever the model list says now", () => {
    const recorded = (id: string, n: number) => ({ id, meta: { imagesNotSent: n } });
    let asked = 0;
    const listSays = (blind: boolean) => () => {
      asked++;
      return blind;
    };
    // Written by a model that could not see; the model of that name on today's connection can.
    expect(imagesAnswerWentWithout(branch, recorded('a2', 2), listSays(false))).toBe(2);
    // Written by a model that could see; today's model of that name cannot.
    expect(imagesAnswerWentWithout(branch, recorded('a2', 0), listSays(true))).toBe(0);
    expect(asked).toBe(0);
    // An answer from before the record: the list's word, as before.
    expect(imagesAnswerWentWithout(branch, { id: 'a2', meta: {} }, listSays(true))).toBe(2);
    expect(imagesAnswerWentWithout(branch, { id: 'a2', meta: {} }, listSays(false))).toBe(0);
  });
});
