/**
 * Text files that are not UTF-8, from the composer to the wire (documents audit): Notepad's UTF-16 (either byte
 * order, behind its byte-order mark) and a Windows-1252 CSV from an old Windows tool were refused with "save it as
 * UTF-8". They are read as what they are; the model gets the same letters the user sees in the file, and the chip
 * says when the reading was a guess (Windows-1252). A UTF-8 file's byte-order mark is not sent.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { attachmentText } from '../../../src/shared/attachment-text';
import { chatBodies, ollama, servicesSuite, settle } from '../integration/helpers';

const MODEL = 'llama3.2:3b';
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const TEXT = 'Prénom;Ville;Montant\nÉlodie;Besançon;12 €\nFrançois;Orléans;7,50 €\n';

/** What an old Windows tool writes for TEXT: one byte a character, € as 0x80 (Windows-1252, not ISO-8859-1). */
function windows1252(text: string): Uint8Array {
  return Uint8Array.from([...text].map((c) => (c === '€' ? 0x80 : c.charCodeAt(0))));
}
const utf16be = (text: string) => Buffer.from(text, 'utf16le').swap16();

const suite = servicesSuite(ollama());

function services() {
  const t = suite.start();
  return t.services;
}

describe('text attachments in other encodings', () => {
  const cases = [
    { what: 'a Windows-1252 CSV', name: 'clients.csv', mime: 'text/csv', bytes: windows1252(TEXT), encoding: 'windows-1252' },
    { what: 'UTF-16 LE with its mark (Notepad)', name: 'notes.txt', mime: 'text/plain', bytes: Buffer.from(`\ufeff${TEXT}`, 'utf16le'), encoding: 'utf-16le' },
    { what: 'UTF-16 BE with its mark', name: 'notes.txt', mime: 'text/plain', bytes: utf16be(`\ufeff${TEXT}`), encoding: 'utf-16be' },
    { what: 'UTF-8 with a byte-order mark', name: 'notes.txt', mime: 'text/plain', bytes: Buffer.from(`\ufeff${TEXT}`, 'utf8'), encoding: undefined },
  ] as const;

  it.each(cases)('attaches $what and sends its letters as they are', async ({ name, mime, bytes, encoding }) => {
    const s = services();
    const h = s.handlers;
    const block = await h['attachments:add']({ name, mime, dataBase64: b64(bytes) });
    expect(block).toMatchObject({ name, mime, kind: 'text', size: bytes.length });
    const expected = attachmentText(name, { format: 'text', text: TEXT });
    expect((await h['attachments:preview']({ block })).text).toBe(expected);
    const chip = await h['attachments:inspect']({ block, model: MODEL });
    expect(chip.error).toBeNull();
    expect(chip.encoding).toBe(encoding);
    expect(chip.textChars).toBe(TEXT.length);

    const sent = await h['chat:send']({ conversationId: null, text: 'Qui a payé le plus ?', model: MODEL, attachments: [block] });
    await settle(s, sent.conversationId);
    expect(chatBodies(suite.replay)[0]?.messages.at(-1)?.content).toBe(`Qui a payé le plus ?\n\n${expected}`);
  });

  // A Japanese, Chinese, Korean or Russian Excel CSV was read as Windows-1252: the model got "¤ê¤ó¤²" for its names.
  it.each([
    { file: 'price-list-shift_jis.csv', encoding: 'shift_jis', text: '商品名,価格,在庫\nりんご,120,35\nみかん,80,120\nｱｲｽｸﾘｰﾑ,150,12\n' },
    { file: 'price-list-gbk.csv', encoding: 'gb18030', text: '产品名称,价格,库存\n苹果,12,35\n橘子,8,120\n' },
    { file: 'price-list-big5.csv', encoding: 'big5', text: '產品名稱,價格,庫存\n蘋果,12,35\n橘子,8,120\n' },
    { file: 'price-list-cp949.csv', encoding: 'euc-kr', text: '제품명,가격,재고\n사과,1200,35\n귤,800,120\n' },
    { file: 'price-list-windows-1251.csv', encoding: 'windows-1251', text: 'Название,Цена,Остаток\nЯблоко,120,35\nАпельсин,80,120\n' },
  ])('attaches $file, says it was read as $encoding, and sends its letters as they are', async ({ file, encoding, text }) => {
    const s = services();
    const h = s.handlers;
    const bytes = readFileSync(resolve(__dirname, '../../fixtures/code-pages', file));
    const block = await h['attachments:add']({ name: file, mime: 'text/csv', dataBase64: b64(bytes) });
    const expected = attachmentText(file, { format: 'text', text });
    expect((await h['attachments:preview']({ block })).text).toBe(expected);
    expect((await h['attachments:inspect']({ block, model: MODEL })).encoding).toBe(encoding);
    const sent = await h['chat:send']({ conversationId: null, text: 'Summarize', model: MODEL, attachments: [block] });
    await settle(s, sent.conversationId);
    expect(chatBodies(suite.replay)[0]?.messages.at(-1)?.content).toBe(`Summarize\n\n${expected}`);
  });

  it('reads an HTML page saved in Windows-1252 with its letters', async () => {
    const h = services().handlers;
    const block = await h['attachments:add']({ name: 'page.html', mime: 'text/html', dataBase64: b64(windows1252('<p>Élodie à Besançon</p>')) });
    expect((await h['attachments:preview']({ block })).text).toContain('Élodie à Besançon');
    expect((await h['attachments:inspect']({ block, model: MODEL })).encoding).toBe('windows-1252');
  });
});
