/**
 * Issue 9, bad input: attachments through the `attachments:add` IPC handler, as the renderer calls it (the
 * dispatcher: schema first, then the blob store). Refusals carry a message for the user and write nothing;
 * hostile file names stay text, and the bytes' path is derived from their digest only.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IpcResult } from '../../../src/shared/ipc';
import type { AttachmentBlock } from '../../../src/shared/turn';
import { branchToMarkdown } from '../../../src/main/export/markdown';
import { createServices, type Services } from '../../../src/main/services';
import { JPEG, PNG } from '../blobs/fixtures';

let dir: string;
let services: Services;
let logs: string[];
export const outcomes: string[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'firebrand-bad-attach-'));
  logs = [];
  services = createServices({ dataDir: dir, log: (m) => logs.push(m) });
});
afterEach(() => {
  services.close();
  rmSync(dir, { recursive: true, force: true });
});
afterAll(() => console.log(['', `attachment bad inputs: ${outcomes.length}`, ...outcomes].join('\n')));

const add = (name: string, mime: string, bytes: Uint8Array) =>
  services.dispatcher.dispatch('attachments:add', { name, mime, dataBase64: Buffer.from(bytes).toString('base64') }) as Promise<IpcResult<AttachmentBlock>>;

function files(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root).flatMap((n) => (statSync(join(root, n)).isDirectory() ? files(join(root, n)) : [join(root, n)]));
}

/** The start of an OLE compound file (.doc, .xls, .ppt), a zip (.zip, .xlsx, .docx) and a Windows program. */
const OLE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x3e, 0x00, 0x03, 0x00]);
const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00, 0x21, 0x00, 0x62, 0x1a, 0x3b, 0x77]);
const EXE = Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0xff, 0xff, 0x00, 0x00]);

const blobRows = () => (services.db.prepare('SELECT count(*) AS n FROM blobs').get() as { n: number }).n;
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describe('attachments that must be refused', () => {
  const TOO_BIG = new Uint8Array(20 * 1024 * 1024 + 1).fill(0x61);
  const refusals: { what: string; name: string; mime: string; bytes: Uint8Array; message: RegExp }[] = [
    { what: 'too large (20 MiB + 1 byte)', name: 'big.txt', mime: 'text/plain', bytes: TOO_BIG, message: /“big\.txt” is 20,971,521 bytes; an attachment can be at most 20,971,520 bytes/ },
    { what: 'empty', name: 'empty.txt', mime: 'text/plain', bytes: new Uint8Array(0), message: /“empty\.txt” is empty; there is nothing to attach/ },
    { what: 'empty image', name: 'empty.png', mime: 'image/png', bytes: new Uint8Array(0), message: /is empty/ },
    { what: 'text claiming PNG', name: 'cat.png', mime: 'image/png', bytes: Buffer.from('not a picture'), message: /“cat\.png” cannot be attached: its content is not a PNG file/ },
    { what: 'text claiming PDF', name: 'doc.pdf', mime: 'application/pdf', bytes: Buffer.from('hello'), message: /its content is not a PDF file/ },
    { what: 'HTML claiming GIF', name: 'x.gif', mime: 'image/gif', bytes: Buffer.from('<script>alert(1)</script>'), message: /not a GIF file/ },
    { what: 'SVG image (can carry script)', name: 'x.svg', mime: 'image/svg+xml', bytes: Buffer.from('<svg onload="alert(1)"/>'), message: /image\/svg\+xml images are not supported/ },
    // Not UTF-8 and no NUL, but control characters no text holds: not taken for Windows-1252 text (text-encoding.ts).
    { what: 'binary claiming text (no NUL, many controls)', name: 'bin.txt', mime: 'text/plain', bytes: Buffer.from([0xc3, 0x28, 0x01, 0x02, 0x03, 0x04, 0xa0, 0xa1]), message: /“bin\.txt” cannot be attached: it holds binary data, not text/ },
    // Documents audit #2: bytes that pass as UTF-8 but hold NULs were taken as text, and the model read garbage.
    { what: 'UTF-16 text without a byte-order mark', name: 'export.csv', mime: 'text/csv', bytes: Buffer.from('name,amount\nDesign,12000\n', 'utf16le'), message: /“export\.csv” cannot be attached: it is UTF-16 text without a byte-order mark; save it as UTF-8 and attach it again/ },
    { what: 'a binary renamed .txt (NULs, valid UTF-8)', name: 'data.txt', mime: 'text/plain', bytes: Buffer.from([0x53, 0x51, 0x4c, 0x00, 0x00, 0x00, 0x01, 0x10, 0x00, 0x7f, 0x00, 0x00, 0x20, 0x00, 0x00, 0x02]), message: /“data\.txt” cannot be attached: it holds binary data, not text/ },
    // Types no reader takes were stored, then refused on their chip once read, their bytes left on disk (documents
    // audit): refused before anything is written, with what can be attached.
    { what: 'a Word 97 document (.doc)', name: 'lettre.doc', mime: 'application/msword', bytes: OLE, message: /^“lettre\.doc” cannot be attached: Firebrand cannot read \.doc files\. It reads PDF, Word \(\.docx\), HTML and text files, and PNG, JPEG, GIF and WebP images\.$/ },
    { what: 'an Excel 97 workbook (.xls)', name: 'budget.xls', mime: 'application/vnd.ms-excel', bytes: OLE, message: /“budget\.xls” cannot be attached: Firebrand cannot read \.xls files\./ },
    { what: 'an Excel workbook (.xlsx, a zip)', name: 'budget.xlsx', mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', bytes: ZIP, message: /“budget\.xlsx” cannot be attached: Firebrand cannot read \.xlsx files\./ },
    { what: 'a PowerPoint 97 deck (.ppt)', name: 'deck.ppt', mime: 'application/vnd.ms-powerpoint', bytes: OLE, message: /“deck\.ppt” cannot be attached: Firebrand cannot read \.ppt files\./ },
    { what: 'a zip archive', name: 'photos.zip', mime: 'application/zip', bytes: ZIP, message: /“photos\.zip” cannot be attached: Firebrand cannot read \.zip files\./ },
    { what: 'a zip of no known type (not taken for a .docx)', name: 'backup', mime: 'application/octet-stream', bytes: ZIP, message: /“backup” cannot be attached: Firebrand cannot read this type of file\./ },
    { what: 'a Windows program (.exe)', name: 'setup.exe', mime: 'application/x-msdownload', bytes: EXE, message: /“setup\.exe” cannot be attached: Firebrand cannot read \.exe files\./ },
    { what: 'a disk image (.dmg)', name: 'App.dmg', mime: 'application/x-apple-diskimage', bytes: EXE, message: /“App\.dmg” cannot be attached: Firebrand cannot read \.dmg files\./ },
    { what: 'a binary of no known type', name: 'tool', mime: 'application/octet-stream', bytes: Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00]), message: /“tool” cannot be attached: Firebrand cannot read this type of file\. It reads/ },
    // A program's first bytes, too few to hold a NUL, passed as text: a known binary format's magic number says binary.
    { what: 'a 2-byte "MZ" of no known type (a Windows program’s start)', name: 'stub', mime: 'application/octet-stream', bytes: Buffer.from('MZ'), message: /^“stub” cannot be attached: Firebrand cannot read this type of file\. It reads PDF, Word/ },
    { what: 'a 4-byte ELF header of no known type', name: 'a.out', mime: 'application/octet-stream', bytes: Buffer.from([0x7f, 0x45, 0x4c, 0x46]), message: /^“a\.out” cannot be attached: Firebrand cannot read \.out files\./ },
    { what: 'malformed media type', name: 'x.txt', mime: 'text/plain) [x](javascript:alert(1)', bytes: Buffer.from('hi'), message: /its type is not a valid media type/ },
  ];

  it.each(refusals)('refuses $what with a message, writing nothing', async ({ what, name, mime, bytes, message }) => {
    const result = await add(name, mime, bytes);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('invalid-payload');
    expect(result.error.message).toMatch(message);
    expect(blobRows()).toBe(0);
    expect(files(join(dir, 'blobs'))).toEqual([]);
    outcomes.push(`  ${what}: refused — ${result.error.message}`);
  });

  it('reads a PDF or an image named as text as what it is, instead of asking to save it as UTF-8', async () => {
    const pdf = Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n', 'latin1');
    const asPdf = await add('report.txt', 'text/plain', pdf);
    expect(asPdf).toMatchObject({ ok: true, value: { name: 'report.txt', mime: 'application/pdf', kind: 'document' } });
    const asPng = await add('photo.txt', 'text/plain', PNG);
    expect(asPng).toMatchObject({ ok: true, value: { name: 'photo.txt', mime: 'image/png', kind: 'image' } });
    // A zip named as text is still refused: every zip (not only a .docx) carries that signature.
    const zip = await add('archive.txt', 'text/plain', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00, 0xff, 0xfe]));
    expect(zip.ok).toBe(false);
  });

  it('refuses payloads the schema rejects (over the base64 cap, missing fields, extra fields) before any handler runs', async () => {
    // Each refusal says which field and what limit, never "Invalid request for attachments:add."
    const cases: [string, unknown, string][] = [
      ['base64 over 28 MB', { name: 'a', mime: 'text/plain', dataBase64: 'a'.repeat(28_000_001) }, 'The file is too large: it can be at most 20.0 MiB.'],
      ['no name', { mime: 'text/plain', dataBase64: 'aGk=' }, 'The request is missing its name.'],
      ['empty name', { name: '', mime: 'text/plain', dataBase64: 'aGk=' }, 'The name is empty.'],
      ['name of 501 chars', { name: 'n'.repeat(501), mime: 'text/plain', dataBase64: 'aGk=' }, 'The name is too long (501 characters): it can be at most 500 characters.'],
      ['extra field (path)', { name: 'a', mime: 'text/plain', dataBase64: 'aGk=', path: '/etc/passwd' }, 'The request has a field Firebrand does not know (path).'],
      ['bytes as a number', { name: 'a', mime: 'text/plain', dataBase64: 42 }, 'The file must be a string.'],
    ];
    for (const [what, payload, message] of cases) {
      const result = await services.dispatcher.dispatch('attachments:add', payload);
      expect(result, what).toEqual({ ok: false, error: { code: 'invalid-payload', message } });
      outcomes.push(`  ${what}: refused — ${message}`);
    }
    expect(logs.filter((l) => l.startsWith('ipc: rejected invalid payload on attachments:add'))).toHaveLength(cases.length);
    expect(blobRows()).toBe(0);
  });
});

// Attachments audit #5, #10: the type the renderer guesses from the name refused what can be read: a PNG saved as
// `.jpg` ("its content is not a JPEG file"), and a Makefile ("a application/octet-stream file").
describe('attachments read as what their bytes are', () => {
  const cases: { what: string; name: string; mime: string; bytes: Uint8Array; as: string; kind: AttachmentBlock['kind'] }[] = [
    { what: 'a PNG named .jpg', name: 'screenshot.jpg', mime: 'image/jpeg', bytes: PNG, as: 'image/png', kind: 'image' },
    { what: 'a JPEG named .png', name: 'photo.png', mime: 'image/png', bytes: JPEG, as: 'image/jpeg', kind: 'image' },
    { what: 'a PNG with no extension', name: 'photo', mime: 'application/octet-stream', bytes: PNG, as: 'image/png', kind: 'image' },
    { what: 'a 2-byte text of no known type', name: 'ok', mime: 'application/octet-stream', bytes: Buffer.from('ok'), as: 'text/plain', kind: 'text' },
    // Judged by its first letters only where nothing says what it is: a .txt the user names as text stays text.
    { what: 'a note named .txt that starts with "MZ"', name: 'mz.txt', mime: 'text/plain', bytes: Buffer.from('MZ'), as: 'text/plain', kind: 'text' },
    { what: 'a Makefile', name: 'Makefile', mime: 'application/octet-stream', bytes: Buffer.from('all:\n\tcc -o app main.c\n'), as: 'text/plain', kind: 'text' },
    { what: 'UTF-16 text (Notepad, with its byte-order mark)', name: 'notes.txt', mime: 'text/plain', bytes: Buffer.from('\ufeffhello', 'utf16le'), as: 'text/plain', kind: 'text' },
    { what: 'Windows-1252 text', name: 'lisezmoi.txt', mime: 'text/plain', bytes: Buffer.from('Café crème à 2 €'.replace('€', '\x80'), 'latin1'), as: 'text/plain', kind: 'text' },
    { what: 'Windows-1252 text with no extension', name: 'LISEZMOI', mime: 'application/octet-stream', bytes: Buffer.from('Café crème\n', 'latin1'), as: 'text/plain', kind: 'text' },
    { what: 'a Word document (.docx)', name: 'report.docx', mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', bytes: ZIP, as: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', kind: 'document' },
  ];
  it.each(cases)('takes $what as $as, under its own name', async ({ name, mime, bytes, as, kind }) => {
    const result = await add(name, mime, bytes);
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value).toMatchObject({ name, mime: as, kind });
  });
});

describe('hostile attachment names', () => {
  const names: [string, string, string][] = [
    ['path separators and ..', '../../../../etc/passwd', '../../../../etc/passwd'],
    ['Windows separators', '..\\..\\Windows\\System32\\evil.txt', '..\\..\\Windows\\System32\\evil.txt'],
    ['absolute path', '/tmp/firebrand-owned.txt', '/tmp/firebrand-owned.txt'],
    ['control characters', 'a\u0000b\u001b[31mred\nline\r.txt', 'a_b_[31mred_line_.txt'],
    ['bidi override spoof', 'invoice\u202Etxt.exe', 'invoice_txt.exe'],
    ['300 characters', `${'n'.repeat(296)}.txt`, `${'n'.repeat(296)}.txt`],
    ['only controls', '\u0007\u0008', '__'],
    ['only spaces', '   ', 'attachment'],
    ['markup', '<img src=x onerror=alert(1)>`](javascript:alert(1)).txt', '<img src=x onerror=alert(1)>`](javascript:alert(1)).txt'],
  ];

  it.each(names)('%s: stored as inert text; the bytes live under their digest only', async (what, name, shown) => {
    const bytes = Buffer.from(`content of ${what}`);
    const result = await add(name, 'text/plain', bytes);
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value).toMatchObject({ id: sha(bytes), name: shown, mime: 'text/plain', size: bytes.length });
    const digest = sha(bytes);
    // The only file written is blobs/ab/cd/<digest>: nothing of the name reached the file system.
    const written = files(dir).map((f) => relative(dir, f)).filter((f) => !f.startsWith('firebrand.db'));
    expect(written).toEqual([join('blobs', digest.slice(0, 2), digest.slice(2, 4), digest)]);
    expect(existsSync('/tmp/firebrand-owned.txt')).toBe(false);
    // Exported as a code span on one line: no markup, no line break from the name.
    const md = branchToMarkdown('t', [{ id: 'u', conversationId: 'c', parentId: null, role: 'user', blocks: [result.value], meta: {}, status: 'done', createdAt: 1 }]);
    const line = md.split('\n').find((l) => l.startsWith('Attachment: '));
    expect(line).toMatch(/^Attachment: `[^`\n]*` \(text\/plain, \d+ bytes\)$/);
    outcomes.push(`  name ${what}: stored as ${JSON.stringify(result.value.name.slice(0, 40))}${result.value.name.length > 40 ? '…' : ''} at blobs/${digest.slice(0, 2)}/${digest.slice(2, 4)}/<sha256>`);
  });
});
