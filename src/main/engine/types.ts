import type { ConnectionKind } from '../../shared/connections';
import type { JsonObject } from '../../shared/json';
import type { AttachmentBlock } from '../../shared/turn';
import type { AttachmentMaterializer } from '../dialects/shared/materialize';
import type { Dialect } from '../dialects/types';
import type { LegResponse } from '../leg/http';

/** Where a step goes: one server, its dialect, and the auth headers only the leg will see. */
export interface EngineConnection {
  /** Connection id: capabilities and n_ctx are cached per connection and model. */
  id: string;
  kind: ConnectionKind;
  label: string;
  baseUrl: string;
  dialect: Dialect;
  /** Read at request time; never stored, logged or put in a body. */
  authHeaders(): Record<string, string>;
  /**
   * The leg of a connection that is not HTTP (the built-in engine): the same body in, the same response shape out;
   * `turnId` names the answer it is for (the engine says per answer what it waits on).
   */
  send?: (body: string, signal: AbortSignal, turnId?: string) => Promise<LegResponse>;
  /** Capabilities the connection knows itself (the built-in engine reads them from the GGUF), instead of a probe. */
  describe?: (model: string) => Promise<ModelCapabilities>;
  /** The exact preflight of an assembled body (the built-in engine: rendered and counted with the model's tokenizer). */
  preflight?: (body: string) => Promise<PreflightResult>;
  /** Tokens `text` makes for `model`, counted by the model's own tokenizer (built-in engine only). */
  countTokens?: (model: string, text: string) => Promise<number>;
}

export type { IdentityLayer } from '../../shared/identity-layer';

/** What an exact preflight found: send (with the exact prompt size), or refuse with a card, or fail with why. */
export type PreflightResult =
  | { kind: 'ok'; promptTokens: number; thinkOpen: boolean }
  | { kind: 'refused'; source: string; message: string; meta: JsonObject }
  | { kind: 'error'; message: string };

/** What the server says a model can do; `undefined` fields are unknown (then nothing is refused on them). */
export interface ModelCapabilities {
  vision?: boolean;
  tools?: boolean;
  thinking?: boolean;
  /** The server's fixed context window (llama-server `n_ctx`). */
  serverContext?: number;
  /** The chat template, where the server shows it (to know whether it pre-opens a think block). */
  template?: string;
  /**
   * The context the model was trained for, where the engine allocates what a request asks (the built-in one, from the
   * GGUF): a window past it is clamped to it (./assemble.ts).
   */
  trainedContext?: number;
  /** The model file a local engine runs (the built-in one): its request record names it. */
  file?: { bytes: number; sha256: string };
}

/** Gets attachments ready for a request (documents read, images scaled), then says what each becomes. */
export interface AttachmentPreparer {
  prepare(blocks: readonly AttachmentBlock[]): Promise<void>;
  materialize: AttachmentMaterializer;
  /** A document's extracted text without the envelope (read_document); undefined where it was not read. */
  documentText?: (block: AttachmentBlock) => string | undefined;
}
