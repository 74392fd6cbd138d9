import type { Dialect } from '../types';
import { encode } from './encode';
import { errorMessage } from './errors';
import { OpenAiParser } from './parser';

export const openaiDialect: Dialect = {
  id: 'openai',
  framing: 'sse',
  chatPath: '/v1/chat/completions',
  encode,
  createParser: (options) => new OpenAiParser(options),
  errorMessage,
};

export { encode as encodeOpenAi, OpenAiParser, errorMessage as openAiErrorMessage };
