import type { Dialect } from '../types';
import { encodeOllama } from './encode';
import { ollamaErrorMessage } from './errors';
import { OllamaParser } from './parse';

/** Ollama's native `/api/chat`: NDJSON, one JSON object per line, `done: true` last. */
export const ollamaDialect: Dialect = {
  id: 'ollama',
  framing: 'ndjson',
  chatPath: '/api/chat',
  encode: encodeOllama,
  createParser: (options) => new OllamaParser(options),
  errorMessage: ollamaErrorMessage,
};

export { OllamaParser } from './parse';
export { encodeOllama } from './encode';
export { ollamaErrorMessage } from './errors';
