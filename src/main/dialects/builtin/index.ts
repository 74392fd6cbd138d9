import type { Dialect } from '../types';
import { encode } from './encode';
import { BuiltinParser } from './parser';

/** The built-in llama.cpp engine's "wire": events of the engine process, one JSON line each. */
export const builtinDialect: Dialect = {
  id: 'builtin',
  framing: 'ndjson',
  chatPath: '',
  encode,
  createParser: (options) => new BuiltinParser(options),
  errorMessage: (status, body) => body.trim() || `The built-in engine failed (${status}).`,
};

export { BuiltinParser, encode as encodeBuiltin };
