/**
 * What each attachment becomes on the wire, worked out once and kept beside its original in the blob store
 * (DESIGN.md §9): a document's extracted text (`<digest>.text-v2-<extractor>.json`), an image's scaled copy (its own blob,
 * recorded in `<digest>.fit-v1.json`). `prepare` does the slow part before a request is assembled; `materialize`
 * is then synchronous, for the dialects; `inspect` tells the composer what an attachment will cost, counted
 * from the same materialized text the dialect sends.
 */
import type { AttachmentInspection } from '../../shared/ipc';
import {
  attachmentText,
  attachmentUnavailable,
  effectiveRange,
  pageCount,
  textTokens,

  type ExtractionFailure,
} from '../../shared/attachment-text';
import { imageTokens } from '../../shared/context-estimate';
import { READABLE_TYPES } from '../../shared/readable-types';
import type { AttachmentBlock } from '../../shared/turn';
import type { BlobStore } from '../blobs/blob-store';
import type { Sidecars } from '../blobs/sidecars';
import type { TokenCounter } from '../connections/token-counter';
import type { MaterializedAttachment } from '../dialects/shared/materialize';
import type { ExtractionResult, ExtractionRunner } from './extraction-runner';
import { extractorFor, needsWorker, plainText, type ExtractorKind } from './extractor-kind';
import { fitImage } from './image-fit';

/**
 * One kept text per extractor (attachments audit #3): the same bytes read as HTML and as plain text are two texts.
 * v1 was kept per digest alone, under whichever type came first, with the first file's name in its failures: not read.
 */
const textSidecar = (kind: ExtractorKind) => `text-v2-${kind}.json`;
/**
 * Where a failure's message names the file (attachments audit #4). A failure is kept per content, so it is worded
 * with a slot, filled with each attachment's own name when shown or sent; a control character, which no display
 * name keeps (displayName), so a real name can never be taken for the slot.
 */
const NAME_SLOT = '\u0001name\u0001';
/** Types worked out per block (its digest and the type it claims); cheap entries, bounded all the same. */
const TYPE_MEMO = 256;
/** v2: a fit records an image whose pixels cannot be decoded (attachments audit #8); v1 looked at the header only. */
const FIT_SIDECAR = 'fit-v2.json';
/** Why a damaged image is not sent; the chip says it with the file's name. */
const DAMAGED_IMAGE = 'its image data is damaged or incomplete, so no model can see it';
/** Extracted texts kept in memory (documents can be megabytes; the sidecar is the store). */
const MEMO = 8;
/** Failures worth keeping: the same bytes will fail the same way. A timeout or a crash may not repeat. */
const LASTING: readonly ExtractionFailure['code'][] = ['encrypted', 'damaged', 'no-text', 'too-large', 'unsupported'];

interface ImageFit {
  /** The blob sent: a scaled copy, or the original itself. */
  digest: string;
  mime: string;
  width?: number;
  height?: number;
  /** The bytes carry an image's signature but their pixels cannot be decoded (a file cut short). */
  damaged?: true;
}

export interface AttachmentContentDeps {
  blobs: BlobStore;
  sidecars: Sidecars;
  runner: ExtractionRunner;
  now: () => number;
  log: (message: string) => void;
}

export class AttachmentContent {
  /** Keyed by digest and extractor (textKey): the same bytes read as HTML and as text are two results. */
  private readonly texts = new Map<string, ExtractionResult>();
  /** The type each block is read as (BlobStore.readAs), keyed by digest and claimed type: it reads the bytes. */
  private readonly types = new Map<string, string>();
  private readonly reading = new Map<string, Promise<ExtractionResult>>();
  private readonly fitting = new Map<string, Promise<ImageFit>>();

  constructor(private readonly deps: AttachmentContentDeps) {}

  /** Reads documents and scales images that a request is about to carry; each original is worked on once. */
  async prepare(blocks: readonly AttachmentBlock[]): Promise<void> {
    // Never a reason not to send: what could not be prepared is materialized as stored or as "not available".
    const outcomes = await Promise.allSettled(blocks.map((b) => (b.kind === 'image' ? this.fit(b) : this.text(b))));
    for (const o of outcomes) if (o.status === 'rejected') this.deps.log(`documents: preparing an attachment failed: ${String(o.reason)}`);
  }

  /** What the dialect sends for `block`; synchronous, so `prepare` must have run for it. */
  readonly materialize = (block: AttachmentBlock): MaterializedAttachment => {
    if (block.kind === 'image') {
      const fit = this.storedFit(block);
      // Sent, the bytes would fail the whole answer on the server; the model is told instead (attachments audit #8).
      if (fit?.damaged) return { kind: 'text', text: attachmentUnavailable(block.name, DAMAGED_IMAGE) };
      const bytes = (fit && this.deps.blobs.read(fit.digest)) || this.deps.blobs.read(block.id);
      if (!bytes) return { kind: 'text', text: attachmentUnavailable(block.name, 'the image is no longer stored') };
      const used = fit && this.deps.blobs.read(fit.digest) ? fit : { digest: block.id, mime: block.mime };
      return { kind: 'image', base64: Buffer.from(bytes).toString('base64'), mime: used.mime, digest: used.digest, ...dims(fit) };
    }
    const result = this.storedText(block);
    if (!result) return { kind: 'text', text: attachmentUnavailable(block.name, 'its text was not read') };
    return { kind: 'text', text: result.ok ? attachmentText(block.name, result.doc, block.pages) : attachmentUnavailable(block.name, failureFor(block, result.failure)) };
  };

  /** The cost of `block` as it will be sent to a model on this kind of server, counted exactly where it can be. */
  async inspect(block: AttachmentBlock, server: { anthropic: boolean; counter?: TokenCounter | undefined }): Promise<AttachmentInspection> {
    const none = { pageCount: null, pageChars: null, textChars: null, pages: null, error: null, image: null };
    if (block.kind === 'image') {
      const fit = await this.fit(block);
      if (fit.damaged) return { ...none, tokens: 0, tokensSource: 'estimate', error: damagedImage(block) };
      const size = fit.width !== undefined && fit.height !== undefined ? { width: fit.width, height: fit.height } : undefined;
      return { ...none, tokens: imageTokens(server.anthropic, size), tokensSource: 'estimate', image: size ? { ...size, scaled: fit.digest !== block.id } : null };
    }
    const result = await this.text(block);
    if (!result.ok) return { ...none, tokens: 0, tokensSource: 'estimate', error: failureFor(block, result.failure) };
    const doc = result.doc;
    const text = attachmentText(block.name, doc, block.pages);
    const exact = await server.counter?.countTokens(text);
    const pages = effectiveRange(block.pages, pageCount(doc)) ?? null;
    return {
      ...none,
      tokens: exact ?? textTokens(text.length),
      tokensSource: exact !== undefined && exact !== null ? 'exact' : 'estimate',
      pageCount: pageCount(doc),
      pageChars: doc.format === 'pdf' ? doc.pages.map((p) => p.length) : null,
      textChars: doc.format === 'pdf' ? null : doc.text.length,
      pages,
      ...(doc.format !== 'pdf' && doc.encoding ? { encoding: doc.encoding } : {}),
    };
  }

  /** A document's extracted text without its envelope (PDF pages marked), for read_document; read beforehand. */
  readonly documentText = (block: AttachmentBlock): string | undefined => {
    const result = this.storedText(block);
    if (!result?.ok) return undefined;
    const doc = result.doc;
    return doc.format === 'pdf' ? doc.pages.map((p, i) => `[page ${i + 1}]\n${p}`).join('\n\n') : doc.text;
  };

  /**
   * A document's text as search indexes it (db/document-search.ts), from what is kept only (the sidecar, or a text
   * file's own bytes): nothing is read anew on search's account. Undefined: not read yet (it may be later); null: it
   * never will be (its reader failed for good, its bytes are gone, no reader takes its type).
   */
  readonly searchableText = (block: AttachmentBlock): string | null | undefined => {
    // Its bytes are gone, or no reader takes its type.
    if (!this.extractorOf(block)) return null;
    const result = this.storedText(block);
    if (!result) return undefined;
    if (!result.ok) return LASTING.includes(result.failure.code) ? null : undefined;
    return result.doc.format === 'pdf' ? result.doc.pages.join('\n\n') : result.doc.text;
  };

  /** The exact text the model will read for a document attachment. */
  async preview(block: AttachmentBlock): Promise<string> {
    await this.text(block);
    const m = this.materialize(block);
    return m.kind === 'text' ? m.text : '';
  }

  private async text(block: AttachmentBlock): Promise<ExtractionResult> {
    const known = this.storedText(block);
    // A timeout or a crashed reader is read again when asked again (the file attached again): it may not repeat.
    // It was kept in memory like a lasting failure, and the file failed the same way until a restart (documents audit #3).
    if (known && (known.ok || LASTING.includes(known.failure.code))) return known;
    const key = textKey(block.id, this.extractorOf(block));
    let pending = this.reading.get(key);
    if (!pending) {
      pending = this.extract(block).finally(() => this.reading.delete(key));
      this.reading.set(key, pending);
    }
    return pending;
  }

  private storedText(block: AttachmentBlock): ExtractionResult | undefined {
    const kind = this.extractorOf(block);
    const key = textKey(block.id, kind);
    const hit = this.texts.get(key);
    if (hit) return this.remember(key, hit);
    if (!kind) return undefined;
    const raw = this.deps.sidecars.read(block.id, textSidecar(kind));
    if (raw) {
      try {
        return this.remember(key, JSON.parse(Buffer.from(raw).toString('utf8')) as ExtractionResult);
      } catch {
        // A torn or foreign sidecar: read the original again.
      }
    }
    // Plain text is cheap: decoded here rather than stored twice.
    if (kind !== 'text') return undefined;
    const bytes = this.deps.blobs.read(block.id);
    return bytes ? this.remember(key, { ok: true, doc: plainText(bytes) }) : undefined;
  }

  private async extract(block: AttachmentBlock): Promise<ExtractionResult> {
    const bytes = this.deps.blobs.read(block.id);
    if (!bytes) return { ok: false, failure: { code: 'failed', message: `“${NAME_SLOT}” is no longer stored.` } };
    const mime = this.typeOf(block, bytes);
    const kind = extractorFor(mime);
    const key = textKey(block.id, kind);
    if (!kind) {
      return this.remember(key, { ok: false, failure: { code: 'unsupported', message: `Firebrand cannot read “${NAME_SLOT}” (${mime}): it reads ${READABLE_TYPES}.` } });
    }
    // The reader words its failures with the slot, not this block's name: they are kept for the content.
    const result: ExtractionResult = needsWorker(kind) ? await this.deps.runner.run(kind, bytes, NAME_SLOT) : { ok: true, doc: plainText(bytes) };
    if (!result.ok) this.deps.log(`documents: ${result.failure.code}: ${failureFor(block, result.failure)}`);
    if (needsWorker(kind) && (result.ok || LASTING.includes(result.failure.code))) {
      await this.deps.sidecars.write(block.id, textSidecar(kind), Buffer.from(JSON.stringify(result), 'utf8')).catch((err: unknown) => {
        this.deps.log(`documents: could not keep the text of ${block.id}: ${err instanceof Error ? err.message : String(err)}`);
      });
    }
    return this.remember(key, result);
  }

  /** The extractor for `block`'s own type; undefined where the bytes are gone or no reader takes the type. */
  private extractorOf(block: AttachmentBlock): ExtractorKind | undefined {
    const known = this.types.get(typeKey(block));
    if (known !== undefined) return extractorFor(known);
    const bytes = this.deps.blobs.read(block.id);
    return bytes ? extractorFor(this.typeOf(block, bytes)) : undefined;
  }

  /**
   * The type `block` is read as: its own where its bytes hold as it, else the stored one (BlobStore.readAs;
   * attachments audit #3). Worked out once per digest and claimed type, since checking text reads the bytes.
   */
  private typeOf(block: AttachmentBlock, bytes: Uint8Array): string {
    const key = typeKey(block);
    const hit = this.types.get(key);
    if (hit !== undefined) return hit;
    const mime = this.deps.blobs.readAs(block, bytes);
    this.types.set(key, mime);
    while (this.types.size > TYPE_MEMO) this.types.delete(this.types.keys().next().value as string);
    return mime;
  }

  private remember(key: string, result: ExtractionResult): ExtractionResult {
    this.texts.delete(key);
    this.texts.set(key, result);
    while (this.texts.size > MEMO) this.texts.delete(this.texts.keys().next().value as string);
    return result;
  }

  private storedFit(block: AttachmentBlock): ImageFit | undefined {
    const raw = this.deps.sidecars.read(block.id, FIT_SIDECAR);
    if (!raw) return undefined;
    try {
      return JSON.parse(Buffer.from(raw).toString('utf8')) as ImageFit;
    } catch {
      return undefined;
    }
  }

  private fit(block: AttachmentBlock): Promise<ImageFit> {
    const known = this.storedFit(block);
    // A scaled copy no request kept can be collected while its original waits in the composer: make it again.
    if (known && (known.digest === block.id || this.deps.blobs.read(known.digest))) return Promise.resolve(known);
    let pending = this.fitting.get(block.id);
    if (!pending) {
      pending = this.scale(block).finally(() => this.fitting.delete(block.id));
      this.fitting.set(block.id, pending);
    }
    return pending;
  }

  private async scale(block: AttachmentBlock): Promise<ImageFit> {
    const bytes = this.deps.blobs.read(block.id);
    const mime = bytes ? this.typeOf(block, bytes) : block.mime;
    const fitted = bytes ? await fitImage(bytes, mime) : undefined;
    let fit: ImageFit = { digest: block.id, mime };
    if (fitted === 'damaged') fit = { digest: block.id, mime, damaged: true };
    else if (fitted && !fitted.changed) fit = { digest: block.id, mime, width: fitted.width, height: fitted.height };
    else if (fitted?.changed) {
      const digest = await this.deps.blobs.store(fitted.bytes, fitted.mime, this.deps.now());
      fit = { digest, mime: fitted.mime, width: fitted.width, height: fitted.height };
    }
    // An image that could not be looked at (sharp not loaded, too many pixels) is sent as stored (the server
    // decides); nothing is kept for it. A damaged one is kept so: the same bytes stay damaged.
    if (fitted) await this.deps.sidecars.write(block.id, FIT_SIDECAR, Buffer.from(JSON.stringify(fit), 'utf8'));
    return fit;
  }
}

const typeKey = (block: AttachmentBlock) => `${block.id}\n${block.mime}`;

/** The kept text's key: the content and the reader it went through (attachments audit #3). */
function textKey(digest: string, kind: ExtractorKind | undefined): string {
  return `${digest}:${kind ?? 'none'}`;
}

/** A kept failure's message for this attachment: worded with its own name (attachments audit #4). */
function failureFor(block: AttachmentBlock, failure: ExtractionFailure): string {
  return failure.message.replaceAll(NAME_SLOT, block.name);
}

/** The chip's words for a damaged image (attachments audit #8), saying what to do. */
function damagedImage(block: AttachmentBlock): string {
  return `“${block.name}” cannot be read: ${DAMAGED_IMAGE}. It may have been cut short while saving or downloading; save or download it again, then attach the new copy.`;
}

function dims(fit: ImageFit | undefined): { width?: number; height?: number } {
  return fit?.width !== undefined && fit.height !== undefined ? { width: fit.width, height: fit.height } : {};
}

