import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

export default defineConfig({
  main: {
    build: {
      rollupOptions: {
        // `index` is the Electron shell; `serve` is the same services under plain Node (serve mode);
        // `builtin-engine` is the llama.cpp engine process both of them start (utilityProcess / fork).
        input: {
          index: resolve('src/main/shell/index.ts'),
          serve: resolve('src/main/serve/index.ts'),
          'builtin-engine': resolve('src/main/builtin/engine-process.ts'),
        },
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
    build: { rollupOptions: { input: { index: resolve('src/renderer/index.html') } } },
    plugins: [react()],
  },
});
