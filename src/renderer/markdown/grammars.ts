/**
 * highlight.js grammars for fenced code, and the names models give them. Two kinds:
 * - Bundled (the markdown chunk imports them): the languages most answers use. A grammar is still built only
 *   when a fence first asks for it: each one is a tree of keyword lists and patterns (about 400 KB of heap for
 *   the bundled ones together), and a chat uses a language or two.
 * - Loaded on demand, each its own small chunk: the rest of what models write (C#, PHP, Ruby, Kotlin, Swift, …).
 *   A page that shows none of them neither fetches nor parses their code (bench/start, bench/long-chat). A fence
 *   that asks for one before it is here shows as plain code and asks for it (`wantedGrammars`); render.ts draws
 *   the chunk again once it is in.
 */
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

type Grammar = typeof bash;

const BUNDLED: Record<string, Grammar> = { bash, c, cpp, css, diff, go, java, javascript, json, markdown, python, rust, sql, typescript, xml, yaml };

/** One literal import per grammar, so the bundler makes each its own chunk (CommonJS: the function is `default`). */
const ON_DEMAND: Record<string, () => Promise<{ default: Grammar }>> = {
  clojure: () => import('highlight.js/lib/languages/clojure'),
  cmake: () => import('highlight.js/lib/languages/cmake'),
  csharp: () => import('highlight.js/lib/languages/csharp'),
  dart: () => import('highlight.js/lib/languages/dart'),
  dockerfile: () => import('highlight.js/lib/languages/dockerfile'),
  dos: () => import('highlight.js/lib/languages/dos'),
  elixir: () => import('highlight.js/lib/languages/elixir'),
  erlang: () => import('highlight.js/lib/languages/erlang'),
  fsharp: () => import('highlight.js/lib/languages/fsharp'),
  graphql: () => import('highlight.js/lib/languages/graphql'),
  groovy: () => import('highlight.js/lib/languages/groovy'),
  haskell: () => import('highlight.js/lib/languages/haskell'),
  ini: () => import('highlight.js/lib/languages/ini'),
  julia: () => import('highlight.js/lib/languages/julia'),
  kotlin: () => import('highlight.js/lib/languages/kotlin'),
  latex: () => import('highlight.js/lib/languages/latex'),
  less: () => import('highlight.js/lib/languages/less'),
  lua: () => import('highlight.js/lib/languages/lua'),
  makefile: () => import('highlight.js/lib/languages/makefile'),
  matlab: () => import('highlight.js/lib/languages/matlab'),
  nginx: () => import('highlight.js/lib/languages/nginx'),
  nix: () => import('highlight.js/lib/languages/nix'),
  objectivec: () => import('highlight.js/lib/languages/objectivec'),
  ocaml: () => import('highlight.js/lib/languages/ocaml'),
  perl: () => import('highlight.js/lib/languages/perl'),
  php: () => import('highlight.js/lib/languages/php'),
  powershell: () => import('highlight.js/lib/languages/powershell'),
  protobuf: () => import('highlight.js/lib/languages/protobuf'),
  r: () => import('highlight.js/lib/languages/r'),
  ruby: () => import('highlight.js/lib/languages/ruby'),
  scala: () => import('highlight.js/lib/languages/scala'),
  scss: () => import('highlight.js/lib/languages/scss'),
  swift: () => import('highlight.js/lib/languages/swift'),
  vbnet: () => import('highlight.js/lib/languages/vbnet'),
  x86asm: () => import('highlight.js/lib/languages/x86asm'),
};

/** Languages a grammar embeds (markdown's inline HTML, HTML's style and script, a Dockerfile's RUN lines). */
const EMBEDS: Record<string, string[]> = { markdown: ['xml'], xml: ['css', 'javascript'], dockerfile: ['bash'] };

/**
 * Other names for the languages, known before any grammar is built or loaded: the grammars' own aliases
 * (highlight.js 11.12), the file extensions and dialect names models put on fences, and `shell`/`console`
 * (highlight.js's `shell` is a prompt transcript; as bash, the commands are what is coloured).
 */
const ALIASES: Record<string, string> = {
  ...{ sh: 'bash', shell: 'bash', zsh: 'bash', console: 'bash', shellsession: 'bash', terminal: 'bash', ksh: 'bash' },
  ...{ h: 'c', cc: 'cpp', 'c++': 'cpp', 'h++': 'cpp', hpp: 'cpp', hh: 'cpp', hxx: 'cpp', cxx: 'cpp', cuda: 'cpp', cu: 'cpp' },
  ...{ patch: 'diff', golang: 'go', jsp: 'java', js: 'javascript', jsx: 'javascript', mjs: 'javascript', cjs: 'javascript', node: 'javascript' },
  ...{ jsonc: 'json', json5: 'json', jsonl: 'json', ndjson: 'json', md: 'markdown', mkdown: 'markdown', mkd: 'markdown' },
  ...{ py: 'python', py3: 'python', python3: 'python', gyp: 'python', ipython: 'python', rs: 'rust' },
  ...{ ts: 'typescript', tsx: 'typescript', mts: 'typescript', cts: 'typescript', yml: 'yaml' },
  ...{ html: 'xml', htm: 'xml', xhtml: 'xml', rss: 'xml', atom: 'xml', xjb: 'xml', xsd: 'xml', xsl: 'xml', plist: 'xml', wsf: 'xml', svg: 'xml', vue: 'xml', svelte: 'xml' },
  ...{ postgres: 'sql', postgresql: 'sql', psql: 'sql', pgsql: 'sql', mysql: 'sql', sqlite: 'sql', plsql: 'sql', tsql: 'sql', mssql: 'sql' },
  ...{ cs: 'csharp', 'c#': 'csharp', dotnet: 'csharp', rb: 'ruby', gemspec: 'ruby', podspec: 'ruby', irb: 'ruby', erb: 'ruby' },
  ...{ kt: 'kotlin', kts: 'kotlin', ktm: 'kotlin', gradle: 'groovy', php3: 'php', php7: 'php', php8: 'php' },
  ...{ toml: 'ini', cfg: 'ini', conf: 'ini', env: 'ini', dotenv: 'ini', editorconfig: 'ini', gitconfig: 'ini', properties: 'ini' },
  ...{ docker: 'dockerfile', containerfile: 'dockerfile', ps: 'powershell', ps1: 'powershell', psm1: 'powershell', pwsh: 'powershell' },
  ...{ bat: 'dos', batch: 'dos', cmd: 'dos', rscript: 'r', sc: 'scala', luau: 'lua', mk: 'makefile', make: 'makefile', mak: 'makefile' },
  ...{ pl: 'perl', pm: 'perl', hs: 'haskell', ex: 'elixir', exs: 'elixir', erl: 'erlang', fs: 'fsharp', 'f#': 'fsharp', clj: 'clojure', edn: 'clojure' },
  ...{ objc: 'objectivec', 'objective-c': 'objectivec', 'obj-c': 'objectivec', mm: 'objectivec', gql: 'graphql', proto: 'protobuf', tex: 'latex' },
  ...{ vb: 'vbnet', asm: 'x86asm', nasm: 'x86asm', ml: 'ocaml', nginxconf: 'nginx', jl: 'julia' },
};

/** The language a fence's (already lower-cased) word names: itself or what it is another name for. */
export function languageName(word: string): string {
  return Object.hasOwn(ALIASES, word) ? ALIASES[word]! : word;
}

/** Languages a fence asked for whose grammar had not loaded yet, since render.ts last took them. */
const wanted = new Set<string>();

/**
 * Whether the language's grammar is ready to highlight with, building a bundled one on first use. A language
 * loaded on demand and not here yet is remembered as wanted.
 */
export function grammarReady(language: string): boolean {
  if (hljs.getLanguage(language)) return true;
  // Own keys only: a fence's word is the model's, and `constructor` is no language.
  const definition = Object.hasOwn(BUNDLED, language) ? BUNDLED[language] : undefined;
  if (definition) {
    hljs.registerLanguage(language, definition);
    for (const embedded of EMBEDS[language] ?? []) grammarReady(embedded);
    return true;
  }
  if (Object.hasOwn(ON_DEMAND, language)) wanted.add(language);
  return false;
}

/** A language whose grammar loads on demand and has not loaded yet. */
export function grammarLoadsOnDemand(language: string): boolean {
  return Object.hasOwn(ON_DEMAND, language) && !hljs.getLanguage(language);
}

/** The languages asked for, not yet loaded, since the last call (render.ts: that chunk's HTML is not final). */
export function takeWantedGrammars(): string[] {
  if (wanted.size === 0) return [];
  const names = [...wanted];
  wanted.clear();
  return names;
}

const loading = new Map<string, Promise<void>>();

/** Loads and registers a grammar that comes on demand (a no-op for any other name). */
export function loadGrammar(language: string): Promise<void> {
  let promise = loading.get(language);
  if (promise) return promise;
  const load = Object.hasOwn(ON_DEMAND, language) ? ON_DEMAND[language] : undefined;
  if (!load) return Promise.resolve();
  promise = load().then((m) => {
    hljs.registerLanguage(language, m.default);
    for (const embedded of EMBEDS[language] ?? []) grammarReady(embedded);
  });
  // A chunk that failed to load (the server went away) may be asked for again by the next render.
  promise.catch(() => loading.delete(language));
  loading.set(language, promise);
  return promise;
}

export { hljs };
