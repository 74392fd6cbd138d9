import type { Dialect } from '../types';
import { encodeAnthropic } from './encode';
import { anthropicErrorMessage } from './errors';
import { AnthropicParser } from './parse';

/** Anthropic's `/v1/messages`: SSE with named events, content blocks, `message_stop` last. */
export const anthropicDialect: Dialect = {
  id: 'anthropic',
  framing: 'sse',
  // A content_block_delta holds a few words, not one token (test/fixtures/anthropic: 3 deltas for 15 tokens).
  severalTokensPerChunk: true,
  chatPath: '/v1/messages',
  encode: encodeAnthropic,
  createParser: (options) => new AnthropicParser(options),
  errorMessage: anthropicErrorMessage,
};

export { AnthropicParser } from './parse';
export { encodeAnthropic } from './encode';
export { anthropicErrorMessage } from './errors';
