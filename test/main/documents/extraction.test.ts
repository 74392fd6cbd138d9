/**
 * Extraction of real files in the reader process (issue 18): PDF pages with markers, DOCX tables, HTML, and every broken
 * file a user can meet ends as a clear per-file failure, never a hang or a crash.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachmentText } from '../../../src/shared/attachment-text';
import { ExtractionRunner } from '../../../src/main/documents/extraction-runner';
import { makeDocuments, PAGE_TEXT, type TestDocuments } from './make-documents';

/** Whether a process is still there (signal 0 checks without sending anything). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

let docs: TestDocuments;
const runner = new ExtractionRunner({ concurrency: 2 });

beforeAll(async () => {
  docs = await makeDocuments();
}, 60_000);
afterAll(() => runner.close());

describe('document extraction', () => {
  it('reads a multi-page PDF printed by Chromium page by page; the model gets [page N] markers', async () => {
    const result = await runner.run('pdf', docs.multiPage, 'report.pdf');
    if (!result.ok) throw new Error(result.failure.message);
    expect(result.doc).toEqual({ format: 'pdf', pages: PAGE_TEXT });
    const text = attachmentText('report.pdf', result.doc);
    expect(text).toBe(`<file name="report.pdf">\n[page 1]\n${PAGE_TEXT[0]}\n\n[page 2]\n${PAGE_TEXT[1]}\n\n[page 3]\n${PAGE_TEXT[2]}\n</file>`);
    expect(attachmentText('report.pdf', result.doc, { from: 2, to: 3 })).toBe(
      `<file name="report.pdf" pages="2-3 of 3">\n[page 2]\n${PAGE_TEXT[1]}\n\n[page 3]\n${PAGE_TEXT[2]}\n</file>`,
    );
  });

  it('reads the whole PDF when told mid-file that an answer started and ended (a pace message is not a job)', async () => {
    const paced = new ExtractionRunner({ concurrency: 1 });
    try {
      const reading = paced.run('pdf', docs.multiPage, 'report.pdf');
      await expect.poll(() => paced.liveReaders).toBe(1);
      paced.setAnswering(true);
      paced.setAnswering(false);
      paced.setAnswering(true);
      const result = await reading;
      if (!result.ok) throw new Error(result.failure.message);
      expect(result.doc).toEqual({ format: 'pdf', pages: PAGE_TEXT });
      // The next file starts while the answer streams, in the same reader.
      const next = await paced.run('pdf', docs.multiPage, 'again.pdf');
      expect(next).toEqual(result);
      expect(paced.liveReaders).toBe(1);
    } finally {
      await paced.close();
    }
  });

  it('says a PDF with no text layer is a scan, instead of sending nothing', async () => {
    expect(await runner.run('pdf', docs.scanned, 'scan.pdf')).toEqual({
      ok: false,
      failure: { code: 'no-text', message: expect.stringContaining('no text layer') as unknown as string },
    });
  });

  it('refuses a password-protected PDF (made by qpdf) with the reason', async () => {
    const result = await runner.run('pdf', docs.passwordProtected, 'locked.pdf');
    expect(result).toMatchObject({ ok: false, failure: { code: 'encrypted' } });
    expect(result.ok ? '' : result.failure.message).toContain('“locked.pdf” is password-protected');
  });

  it('says a truncated PDF is damaged', async () => {
    const result = await runner.run('pdf', docs.truncated, 'cut.pdf');
    expect(result).toMatchObject({ ok: false, failure: { code: 'damaged' } });
    expect(result.ok ? '' : result.failure.message).toContain('“cut.pdf” is damaged or incomplete');
  });

  it('reads a DOCX with a table (made by the docx package) as headings, paragraphs and table rows', async () => {
    const result = await runner.run('docx', docs.docxWithTable, 'budget.docx');
    if (!result.ok) throw new Error(result.failure.message);
    expect(result.doc).toEqual({
      format: 'docx',
      text: '# Budget 2026\n\nSpending by team, in euros.\n\n| Team | Amount |\n| --- | --- |\n| Design | 12,000 |\n| Research | 30,500 |\n\nApproved on March 3.',
    });
  });

  it('says a file that only looks like a DOCX (a zip signature, then junk) is damaged', async () => {
    const junk = Uint8Array.from([0x50, 0x4b, 0x03, 0x04, ...new TextEncoder().encode('not really a zip')]);
    const result = await runner.run('docx', junk, 'fake.docx');
    expect(result).toMatchObject({ ok: false, failure: { code: 'damaged' } });
    // In words a user can act on, not the zip reader's (documents pass: "(Corrupted zip: can't find end of central
    // directory)" was on the chip).
    expect(result.ok ? '' : result.failure.message).toBe(
      '“fake.docx” could not be read as a Word document: it is damaged, incomplete or not a .docx file. Open it in Word, save it as .docx again and attach that.',
    );
  });

  it('reads HTML through a parser: scripts and styles dropped, entities decoded, an unclosed tag harmless', async () => {
    const html = '<html><head><title>Notes</title><style>p{}</style></head><body><h2>Plan</h2><p>Fish &amp; chips<script>alert(1)</script></p><ul><li>one</li><li>two</li></ul><p>open <b>bold';
    const result = await runner.run('html', new TextEncoder().encode(html), 'notes.html');
    expect(result).toEqual({ ok: true, doc: { format: 'html', text: 'Notes\n\n## Plan\n\nFish & chips\n\n- one\n- two\n\nopen bold' } });
    // 140 KB of unclosed `<script` froze the old regex converter for seconds (issue 15); a parser is linear.
    const hostile = await runner.run('html', new TextEncoder().encode('<script'.repeat(20_000)), 'hostile.html');
    expect(hostile).toEqual({ ok: true, doc: { format: 'html', text: '' } });
  });

  it('keeps a reader that answered for the next file (no second process to start), and ends it once idle', async () => {
    const kept = new ExtractionRunner({ idleMs: 300 });
    try {
      const page = (text: string) => new TextEncoder().encode(`<p>${text}</p>`);
      expect(await kept.run('html', page('one'), 'one.html')).toEqual({ ok: true, doc: { format: 'html', text: 'one' } });
      const [pid] = kept.readerPids;
      expect(kept.liveReaders).toBe(1);
      expect(await kept.run('html', page('two'), 'two.html')).toEqual({ ok: true, doc: { format: 'html', text: 'two' } });
      expect(kept.readerPids).toEqual([pid]);
      await expect.poll(() => kept.liveReaders).toBe(0);
      expect(alive(pid!)).toBe(false);
      // A failure is never handed another file: the next file gets a fresh reader and is read.
      const junk = Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]);
      expect(await kept.run('docx', junk, 'fake.docx')).toMatchObject({ ok: false });
      expect(await kept.run('html', page('three'), 'three.html')).toEqual({ ok: true, doc: { format: 'html', text: 'three' } });
    } finally {
      await kept.close();
    }
    expect(kept.liveReaders).toBe(0);
  });

  it('stops a reader that runs past its time budget, and leaves no process behind', async () => {
    const slow = new ExtractionRunner({ timeoutMs: 1 });
    try {
      const result = await slow.run('pdf', docs.multiPage, 'slow.pdf');
      expect(result).toMatchObject({ ok: false, failure: { code: 'timeout' } });
      // Linux tells a process's CPU time, and the budget counts it; elsewhere it is the wall clock.
      expect(result.ok ? '' : result.failure.message).toContain(process.platform === 'linux' ? 'of processor time and was stopped' : 'took longer than');
      await expect.poll(() => slow.liveReaders).toBe(0);
    } finally {
      await slow.close();
    }
  });

  it.runIf(process.platform === 'linux')('does not stop a reader that waited for the CPU longer than its budget: the budget is its own CPU time', async () => {
    // A reader that gets no CPU at all (stopped, as if the cores were taken by work at a higher priority) for
    // twice its budget of wall-clock time, then given the CPU back, still reads its file.
    const budget = 1_500;
    const starved = new ExtractionRunner({ timeoutMs: budget });
    try {
      expect(await starved.run('html', new TextEncoder().encode('<p>warm</p>'), 'warm.html')).toMatchObject({ ok: true });
      const [pid] = starved.readerPids;
      process.kill(pid!, 'SIGSTOP');
      const reading = starved.run('pdf', docs.multiPage, 'report.pdf');
      // Wall-clock time is what this test is about: the reader is stopped, so nothing else can show it passing.
      await new Promise((r) => setTimeout(r, 2 * budget));
      process.kill(pid!, 'SIGCONT');
      const result = await reading;
      if (!result.ok) throw new Error(result.failure.message);
      expect(result.doc).toEqual({ format: 'pdf', pages: PAGE_TEXT });
    } finally {
      await starved.close();
    }
  });

  it('stops a reader that runs out of its memory limit, with a message, and the process goes on', async () => {
    const small = new ExtractionRunner({ maxHeapMb: 8 });
    try {
      // A million empty elements: a parser's DOM of them needs far more than 8 MB of heap.
      const result = await small.run('html', new TextEncoder().encode('<p></p>'.repeat(1_000_000)), 'huge.html');
      expect(result).toMatchObject({ ok: false, failure: { code: 'too-large' } });
      await expect.poll(() => small.liveReaders).toBe(0);
    } finally {
      await small.close();
    }
  });
});
