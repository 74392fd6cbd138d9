/**
 * Which Windows code page a text file that is not UTF-8 was saved in. Excel and Notepad on a Japanese, Chinese,
 * Korean or Russian Windows save a CSV or .txt in the system's code page (Shift_JIS, GBK, Big5, Korean's CP949 or
 * Windows-1251), not UTF-8; Firebrand read every such file as Windows-1252, so a Japanese price list reached the
 * model as "¤ê¤ó¤²" mojibake (the closing notes' "other code pages are read as Windows-1252").
 *
 * No mark says which it is, so the bytes are weighed, as browsers do for a page with no charset:
 * - Shift_JIS has a structure of its own: its kana, punctuation and common (JIS level 1) kanji have lead bytes
 *   0x81-0x84 and 0x88-0x98, which the others use for rare characters or not at all, and the others' common lead
 *   bytes (0xA1 and up) are half-width katakana in Shift_JIS, which Japanese text hardly uses.
 * - GBK, Big5 and CP949 share their common lead and trail bytes (Korean syllables decode as common Chinese
 *   characters), so each is read and the share of its language's most frequent characters counted: text in the
 *   right one is made of them (about half of any Chinese text is its 200 commonest characters), text read in the
 *   wrong one is a scatter of rare ones.
 * - Windows-1251 (Cyrillic) maps the bytes of Windows-1252's accented letters to Cyrillic letters: Russian words are
 *   Cyrillic throughout, while "Café" read so is "Cafй", a Cyrillic letter inside a Latin word.
 * Windows-1252 stays the answer where none of these fits: a French or German file reads as it did.
 */

/** What TextDecoder is asked for ('gb18030' reads GBK, a subset; 'euc-kr' is WHATWG's, CP949 whole). */
export type CodePage = 'shift_jis' | 'gb18030' | 'big5' | 'euc-kr' | 'windows-1251' | 'windows-1252';

/** Bytes weighed: a file's start says what it is, and a large one is not decoded four times to find out. */
const SAMPLE_BYTES = 64 * 1024;

/** Share of Shift_JIS characters in its common rows that says it is Japanese. */
const SHIFT_JIS_COMMON = 0.85;

/** Share of a language's commonest characters that says the bytes are in its code page (a wrong one reads 0-5 %). */
const FREQUENT_SHARE = 0.15;

/** The commonest characters of simplified Chinese text (GBK), traditional (Big5) and Korean syllables (CP949). */
const FREQUENT: Record<'gb18030' | 'big5' | 'euc-kr', ReadonlySet<string>> = {
  gb18030: new Set(
    '的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部正名定女问力机给等几很业最间新什打便位因重被走电四第门相次东政海口使教西再平真听世气信北少关并内加化由却代军产入先山五太水万市眼体别处总才场师书比住员九笑性通目华报立马命张活难神数件安表原车白应路期叫死常提感金何更反合放做系计或司利受光王果亲界及今京务制解各任至清物台象记边共风战接它许八特觉望直服毛林题建南度统色字请交爱让认算论百吃义科怎元社术结六功指思非流每青管夫连远资队跟带花快条院变联言权往展该领传近留红治决周保达办运武半候七必城父强步完革深区即求品士转量空甚众技轻程告江语英基派满式李息写呢识极令黄德收脸钱党倒未持取设始版双历越史商千片容研像找友孩站广改议形委早房音火际则首单据导影失拿网香似斯专石若兵弟谁校读志飞观争究包组造落视济喜离虽坏兴急河吧福树致药哪集选断费局愿调具备价格库存称销售额数量单价合计总号码日期姓名地址电话备注',
  ),
  big5: new Set(
    '的一是不了人我在有他這中大來上國個到說們為子和你地出道也時年得就那要下以生會自著去之過家學對可她裡後小麼心多天而能好都然沒日於起還發成事只作當想看文無開手十用主行方又如前所本見經頭面公同三已老從動兩長知民樣現分將外但身些與高意進把法此實回二理美點月明其種聲全工己話兒者向情部正名定女問力機給等幾很業最間新什打便位因重被走電四第門相次東政海口使教西再平真聽世氣信北少關並內加化由卻代軍產入先山五太水萬市眼體別處總才場師書比住員九笑性通目華報立馬命張活難神數件安表原車白應路期叫死常提感金何更反合放做系計或司利受光王果親界及今京務制解各任至清物台臺象記邊共風戰接它許八特覺望直服毛林題建南度統色字請交愛讓認算論百吃義科怎元社術結六功指思非流每青管夫連遠資隊跟帶花快條院變聯言權往展該領傳近留紅治決周保達辦運武半候七必城父強步完革深區即求品士轉量空甚眾技輕程告江語英基派滿式李息寫呢識極令黃德收臉錢黨倒未持取設始版雙歷越史商千片容研像找友孩站廣改議形委早房音火際則首單據導影失拿網香似斯專石若兵弟誰校讀志飛觀爭究包組造落視濟喜離雖壞興急河吧福樹致藥哪集選斷費局願調具備價格庫存稱銷售額數量單價合計總號碼日期姓名地址電話備註',
  ),
  'euc-kr': new Set(
    '이다는의에가을고하지기로서한사도리자있것수들게어나그아일인니시대보으주우적해요전정제부상면원과라국를만성화때같경없말여내방동생문비장터년중개학소회신관물할위않음발되무분계실더거선교용저모구간히세치행께미공연안까금결식및했습입품명격재트스드프크레오운김박최강조윤임한오서신권황송류홍전고문양손배백허남심노하곽성차주우구민진나엄채원천방공현함변염여추도소석선설마길연위표명기반왕금옥육인맹제모탁국어은용요의애영호해월화목토일년월시분초원개명번호이름주소전화가격재고수량합계날짜비고',
  ),
};

export function guessCodePage(bytes: Uint8Array): CodePage {
  const sample = bytes.subarray(0, SAMPLE_BYTES);
  if (decodesAs(sample, 'shift_jis') !== undefined && shiftJisCommonShare(sample) >= SHIFT_JIS_COMMON) return 'shift_jis';
  let best: { page: CodePage; share: number } | undefined;
  for (const page of ['gb18030', 'big5', 'euc-kr'] as const) {
    const text = decodesAs(sample, page);
    if (text === undefined) continue;
    const { share, hits } = frequentShare(text, FREQUENT[page]);
    // Two at least: one pair of accented letters can make a common character by chance ("nÇàx" holds 青 in GBK).
    if (hits >= 2 && share >= FREQUENT_SHARE && (!best || share > best.share)) best = { page, share };
  }
  if (best) return best.page;
  return looksCyrillic(sample) ? 'windows-1251' : 'windows-1252';
}

/** The text of `bytes` in `page`, or undefined where they are not valid in it (an incomplete last character allowed: a sample may cut one). */
function decodesAs(bytes: Uint8Array, page: CodePage): string | undefined {
  try {
    return new TextDecoder(page, { fatal: true }).decode(bytes, { stream: true });
  } catch {
    return undefined;
  }
}

/**
 * Of the characters Shift_JIS makes of `bytes` beyond ASCII, the share in its common rows (the module comment).
 * Half-width katakana (older systems' product names, "ｱｲｳ") count where full-width kana are there too: two kana at
 * least, which a text in another code page, read as Shift_JIS, hardly has.
 */
function shiftJisCommonShare(bytes: Uint8Array): number {
  let chars = 0;
  let common = 0;
  let kana = 0;
  let halfWidth = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b < 0x80) continue;
    chars++;
    // A lead byte: 0x81-0x9F and 0xE0-0xFC; its trail is skipped. Single bytes 0xA1-0xDF: half-width katakana.
    if ((b >= 0x81 && b <= 0x9f) || (b >= 0xe0 && b <= 0xfc)) {
      if ((b >= 0x81 && b <= 0x84) || (b >= 0x88 && b <= 0x98)) common++;
      if (b === 0x82 || b === 0x83) kana++;
      i++;
    } else if (b >= 0xa1 && b <= 0xdf) halfWidth++;
  }
  return chars === 0 ? 0 : (common + (kana >= 2 ? halfWidth : 0)) / chars;
}

/** Of `text`'s letters beyond ASCII (punctuation and symbols aside), how many are in `frequent`, and their share. */
function frequentShare(text: string, frequent: ReadonlySet<string>): { share: number; hits: number } {
  let letters = 0;
  let hits = 0;
  for (const ch of text) {
    if (ch < '\u0080' || !/\p{L}/u.test(ch)) continue;
    letters++;
    if (frequent.has(ch)) hits++;
  }
  return { share: letters === 0 ? 0 : hits / letters, hits };
}

/** Windows-1251's letters: 0xC0-0xFF (А-я), 0xA8 and 0xB8 (Ё, ё). */
const isCyrillicByte = (b: number) => b >= 0xc0 || b === 0xa8 || b === 0xb8;
const isLatinLetter = (b: number) => (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a);

/**
 * Read as Windows-1251, the bytes make Russian (Ukrainian, Bulgarian…) words: at least 4 Cyrillic letters, nearly
 * none of them beside a Latin letter in the same word ("Cafй"), and no bytes 0x80-0xBF beyond a few (quotes,
 * dashes, №, « »: one in four letters), which Windows-1252 text uses for its own letters and symbols.
 */
function looksCyrillic(bytes: Uint8Array): boolean {
  let letters = 0;
  let mixed = 0;
  let other = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b < 0x80) continue;
    if (!isCyrillicByte(b)) {
      other++;
      continue;
    }
    letters++;
    if (isLatinLetter(bytes[i - 1] ?? 0) || isLatinLetter(bytes[i + 1] ?? 0)) mixed++;
  }
  return letters >= 4 && mixed * 20 <= letters && other * 4 <= letters;
}
