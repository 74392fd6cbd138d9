/**
 * Which Windows code page a text file that is not UTF-8 is read in (src/main/blobs/code-page.ts): a Japanese,
 * Chinese, Korean or Russian CSV from Excel was read as Windows-1252 and reached the model as mojibake, while a
 * French or German one must keep reading as Windows-1252.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeText } from '../../../src/main/blobs/text-encoding';

const fixture = (name: string) => readFileSync(resolve(__dirname, '../../fixtures/code-pages', name));

/** Windows-1252 as an old Windows tool writes it: one byte a character, € as 0x80. */
const cp1252 = (text: string) => Uint8Array.from([...text].map((c) => (c === '€' ? 0x80 : c === 'Œ' ? 0x8c : c.charCodeAt(0))));

describe('a text file in a Windows code page', () => {
  it.each([
    ['price-list-shift_jis.csv', 'shift_jis', '商品名,価格,在庫\nりんご,120,35\nみかん,80,120\nｱｲｽｸﾘｰﾑ,150,12\n'],
    ['meeting-shift_jis.txt', 'shift_jis', '会議は木曜日に延期されました。資料を確認してください。\n'],
    ['price-list-gbk.csv', 'gb18030', '产品名称,价格,库存\n苹果,12,35\n橘子,8,120\n'],
    ['meeting-gbk.txt', 'gb18030', '我们明天去北京开会，请准备好资料。\n'],
    ['price-list-big5.csv', 'big5', '產品名稱,價格,庫存\n蘋果,12,35\n橘子,8,120\n'],
    ['price-list-cp949.csv', 'euc-kr', '제품명,가격,재고\n사과,1200,35\n귤,800,120\n'],
    ['meeting-cp949.txt', 'euc-kr', '안녕하세요. 오늘 회의는 목요일로 연기되었습니다.\n'],
    ['price-list-windows-1251.csv', 'windows-1251', 'Название,Цена,Остаток\nЯблоко,120,35\nАпельсин,80,120\n'],
    ['report-windows-1251.txt', 'windows-1251', 'Отчёт за «второй» квартал — 2024 г. №5\n'],
  ])('reads %s as %s, with its letters', (name, encoding, text) => {
    expect(decodeText(fixture(name))).toEqual({ text, encoding });
  });

  it.each([
    'Prénom;Ville;Montant\nÉlodie;Besançon;12 €\n',
    'été',
    'à côté',
    'naïve café résumé',
    'Größe,Preis\nÄpfel,1\nMüsli,2\n',
    'Straße über Ärger öffnen',
    'Año,Niño,Señor\n2024,sí,no\n',
    'São Paulo, coração, ação',
    'Smørrebrød og æbleskiver på Ærø',
    'Œuvre 12 € éà',
    'ÉTÉ ÀÉÈ',
  ])('keeps reading Latin text as Windows-1252: %j', (text) => {
    expect(decodeText(cp1252(text))).toEqual({ text, encoding: 'windows-1252' });
  });

  it('reads a large file from what its start says, and a later stray byte as a replacement, not an error', () => {
    const start = fixture('meeting-shift_jis.txt');
    const big = Buffer.concat([...Array.from({ length: 2_000 }, () => start), Buffer.from([0x82])]);
    const { text, encoding } = decodeText(big);
    expect(encoding).toBe('shift_jis');
    expect(text.startsWith('会議は木曜日に延期されました。')).toBe(true);
    expect(text.endsWith('\ufffd')).toBe(true);
  });
});
