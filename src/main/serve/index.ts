/**
 * `npm run serve -- --port P --data-dir D [--ollama URL] [--models-dir DIR] [--host H] [--allow-host NAME]... [--token T]`:
 * Firebrand headless, opened from a browser. The built-in engine runs as a forked Node process (out/main/builtin-engine.js).
 */
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { forkSpawner } from '../builtin/fork-spawner';
import { warmValidators } from '../ipc/dispatch';
import { createServices } from '../services';
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
  const services = createServices({
    dataDir: resolve(values['data-dir']),
    ...(values.ollama ? { ollamaUrl: values.ollama } : {}),
    ...(values['models-dir'] ? { modelsDir: resolve(values['models-dir']) } : {}),
    watchServers: true,
    builtinEngine: forkSpawner({ entry: resolve(here, 'builtin-engine.js'), log: (line) => console.error(line) }),
  });
  const serve = await startServe({
    services,
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
  // What a page asks first, made ready while the browser loads it.
  setImmediate(() => warmValidators(['settings:get', 'connections:list', 'conversations:list', 'models:list', 'aliases:list', 'models:context-window']));
  const shutdown = () => {
    void serve.close().then(async () => {
      services.close();
      // MCP servers get their grace to stop (a few seconds at most); whatever is left dies with this process.
      await Promise.race([services.closed, new Promise((r) => setTimeout(r, 3000))]);
      process.exit(0);
    });
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((err: unknown) => {
  console.error(`Firebrand could not start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
