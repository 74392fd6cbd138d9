import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';

/**
 * The page's first script (main.tsx) is small: it opens the socket, sends the first requests and then imports
 * the app (app-start.tsx). The app's chunks are preloaded from the HTML as well, so the browser fetches them while
 * it runs that first script instead of after it, and all at once (a chunk found only by parsing another one came
 * ~150 ms after it on the busy machine; bench/start).
 */
function preloadAppChunks(): Plugin {
  return {
    name: 'firebrand-preload-app-chunks',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const bundle = ctx.bundle ?? {};
        const app = Object.values(bundle).find((c) => c.type === 'chunk' && c.facadeModuleId?.endsWith('/src/renderer/app-start.tsx'));
        if (!app || app.type !== 'chunk') return [];
        const files = new Set<string>();
        const add = (file: string) => {
          const chunk = bundle[file];
          // The page's own entry is its script tag already.
          if (files.has(file) || chunk?.type !== 'chunk' || chunk.isEntry) return;
          files.add(file);
          for (const dep of chunk.imports) add(dep);
        };
        add(app.fileName);
        return [...files].map((file) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `./${file}` }, injectTo: 'head' as const }));
      },
    },
  };
}

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
        // `firebrand-worker` runs parsing of untrusted input off the event loop in a worker thread (src/main/workers), and
        // `extract-process` reads attachments' text (src/main/documents), in a low-priority process of its own.
        input: {
          index: resolve('src/main/shell/index.ts'),
          serve: resolve('src/main/serve/index.ts'),
          'builtin-engine': resolve('src/main/builtin/engine-process.ts'),
          'firebrand-worker': resolve('src/main/workers/worker-entry.ts'),
          'extract-process': resolve('src/main/documents/extract-process.ts'),
        },
        // Shared chunks sit beside the entries, so code in any of them finds the worker entry as a sibling.
        // Minified with names kept: V8 reads half as much source at every start (~18 ms of main's CPU, bench/start),
        // and a logged stack still names its functions.
        output: { chunkFileNames: '[name]-[hash].js', minify: true, keepNames: true },
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
    // Fonts are never inlined: the page's CSP allows fonts from 'self' only, so a data: font (KaTeX_Size3 was small
    // enough to inline) was refused with an error in the console before the browser fell back to its .woff.
    build: {
      minify: true,
      assetsInlineLimit: (file: string) => (/\.(woff2?|ttf|otf)$/.test(file) ? false : undefined),
      rollupOptions: { input: { index: resolve('src/renderer/index.html') } },
    },
    plugins: [react(), preloadAppChunks()],
  },
});
