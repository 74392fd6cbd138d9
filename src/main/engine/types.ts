import type { ConnectionKind } from '../../shared/connections';
import type { AttachmentBlock } from '../../shared/turn';
import type { AttachmentMaterializer } from '../dialects/shared/materialize';
import type { Dialect } from '../dialects/types';

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
}

export type { IdentityLayer } from '../../shared/identity-layer';

/** What the server says a model can do; `undefined` fields are unknown (then nothing is refused on them). */
export interface ModelCapabilities {
  vision?: boolean;
  tools?: boolean;
  thinking?: boolean;
  /** The server's fixed context window (llama-server `n_ctx`). */
  serverContext?: number;
  /** The chat template, where the server shows it (to know whether it pre-opens a think block). */
  template?: string;
}

/** Gets attachments ready for a request (documents read, images scaled), then says what each becomes. */
export interface AttachmentPreparer {
  prepare(blocks: readonly AttachmentBlock[]): Promise<void>;
  materialize: AttachmentMaterializer;
  /** A document's extracted text without the envelope (read_document); undefined where it was not read. */
  documentText?: (block: AttachmentBlock) => string | undefined;
}
