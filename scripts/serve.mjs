// `npm run serve -- --port P --data-dir D [--ollama URL]`: build if needed, then run serve mode under plain Node.
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildIfStale } from './build-if-stale.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
buildIfStale(root);
await import(pathToFileURL(join(root, 'out/main/serve.js')).href);
