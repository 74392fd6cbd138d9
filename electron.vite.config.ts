import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

export default defineConfig({
  main: {
    build: {
      // Pure-JS dependencies are bundled: loading them as packages (hundreds of files resolved, read and wrapped
      // one by one, CommonJS parsed again for its exports) cost serve mode ~100 ms of CPU per start (bench/start).
      // Native and large lazily loaded packages stay external, as does ws's optional native bufferutil.
      externalizeDeps: { exclude: ['undici', 'ajv', 'ws', 'eventsource-parser', 'ipaddr.js', '@huggingface/jinja'] },
      rollupOptions: {
        // `index` is the Electron shell; `serve` is the same services under plain Node (serve mode);
        // `builtin-engine` is the llama.cpp engine process both of them start (utilityProcess / fork);
        // `firebrand-worker` runs parsing of untrusted input off the event loop (src/main/workers), and
        // `extract-worker` reads one attachment's text (src/main/documents), each in a worker thread.
        input: {
          index: resolve('src/main/shell/index.ts'),
          serve: resolve('src/main/serve/index.ts'),
          'builtin-engine': resolve('src/main/builtin/engine-process.ts'),
          'firebrand-worker': resolve('src/main/workers/worker-entry.ts'),
          'extract-worker': resolve('src/main/documents/extract-worker.ts'),
        },
        // Shared chunks sit beside the entries, so code in any of them finds the worker entry as a sibling.
        output: { chunkFileNames: '[name]-[hash].js' },
        external: ['bufferutil'],
      },
    },
  },
  preload: {
    build: {
      // Sandboxed preloads must be CommonJS.
      rollupOptions: { input: { index: resolve('src/preload/index.ts') }, output: { format: 'cjs', entryFileNames: '[name].cjs' } },
    },
  },
  renderer: {
    root: resolve('src/renderer'),
    // Minified: the page parses and compiles less code before its first paint (bench/start). Settings, the model
    // manager and the markdown pipeline are chunks of their own, loaded when first needed.
    build: { minify: true, rollupOptions: { input: { index: resolve('src/renderer/index.html') } } },
    plugins: [react()],
  },
});
