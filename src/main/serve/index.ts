/**
 * `npm run serve -- --port P --data-dir D [--ollama URL] [--models-dir DIR] [--host H] [--allow-host NAME]... [--token T]`:
 * Firebrand headless, opened from a browser. The built-in engine runs as a forked Node process (out/main/builtin-engine.js).
 */
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Services } from '../services';
import { tokenProblem } from './serve-policy';
import { startServe } from './serve-server';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '8765' },
      host: { type: 'string', default: '127.0.0.1' },
      'data-dir': { type: 'string', default: join(homedir(), '.firebrand') },
      ollama: { type: 'string' },
      'models-dir': { type: 'string' },
      token: { type: 'string' },
      // Host names (besides IP addresses and localhost) a browser may use to open serve mode.
      'allow-host': { type: 'string', multiple: true },
    },
    strict: true,
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a port number, not "${values.port}"`);
  const tokenRefused = values.token !== undefined ? tokenProblem(values.token) : undefined;
  if (tokenRefused) throw new Error(tokenRefused);
  const here = dirname(fileURLToPath(import.meta.url));
  // Listen first, then load the services (most of a start is loading their code: undici, ajv, SQLite): the
  // browser opens the page and loads its scripts meanwhile, and its socket waits for them (bench/start).
  let provide: (services: Promise<Services>) => void = () => {};
  const loading = new Promise<Services>((r) => (provide = r));
  const serve = await startServe({
    services: loading,
    rendererDir: resolve(here, '../renderer'),
    port,
    host: values.host,
    ...(values.token !== undefined ? { token: values.token } : {}),
    ...(values['allow-host'] ? { allowHosts: values['allow-host'] } : {}),
  });
  if (values.host !== '127.0.0.1' && values.host !== 'localhost') {
    console.error(`Warning: serving on ${values.host}: anyone who can reach it and has the token can use Firebrand, including starting programs on this machine as tool servers (Settings → Tools).`);
  }
  console.log(`Firebrand is serving at ${serve.url}`);
  for (const other of serve.urls.slice(1)) console.log(`  also at ${other}`);
  provide(loadServices(values, here));
  const shutdown = () => {
    void serve.close().then(async () => {
      const services = await loading;
      services.close();
      // MCP servers get their grace to stop (a few seconds at most); whatever is left dies with this process.
      await Promise.race([services.closed, new Promise((r) => setTimeout(r, 3000))]);
      process.exit(0);
    });
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  await loading;
}

/**
 * The services' heaviest dependencies, imported one at a time before the services: an import holds the event
 * loop for the whole of its evaluation (undici alone took 150 ms on a busy machine), and between two of them the
 * page's files are served instead of waiting for all of it. undici is the parts the leg uses (leg/undici.ts).
 */
const HEAVY_DEPENDENCIES = [() => import('../leg/undici'), () => import('ajv'), () => import('better-sqlite3')];

async function loadServices(values: { 'data-dir': string; ollama?: string | undefined; 'models-dir'?: string | undefined }, here: string): Promise<Services> {
  for (const load of HEAVY_DEPENDENCIES) {
    await load();
    await new Promise((r) => setImmediate(r));
  }
  const [{ createServices }, { forkSpawner }] = await Promise.all([import('../services'), import('../builtin/fork-spawner')]);
  await new Promise((r) => setImmediate(r));
  return createServices({
    dataDir: resolve(values['data-dir']),
    ...(values.ollama ? { ollamaUrl: values.ollama } : {}),
    ...(values['models-dir'] ? { modelsDir: resolve(values['models-dir']) } : {}),
    watchServers: true,
    prefetchModelList: true,
    builtinEngine: forkSpawner({ entry: resolve(here, 'builtin-engine.js'), log: (line) => console.error(line) }),
  });
}

main().catch((err: unknown) => {
  console.error(`Firebrand could not start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
