import { describe, expect, it, vi } from 'vitest';

// render.ts sanitizes with DOMPurify, which needs a DOM: here markdown-it's HTML passes through.
vi.mock('dompurify', () => ({ default: { addHook: () => {}, setConfig: () => {}, sanitize: (html: string) => html } }));

const { markdownToHtml } = await import('../../src/renderer/markdown/to-html');
const { loadGrammar, takeWantedGrammars } = await import('../../src/renderer/markdown/grammars');
const { renderMarkdown, whenMoreReady } = await import('../../src/renderer/markdown/render');

const fence = (word: string, code: string) => '```' + word + '\n' + code + '\n```';
const coloured = (html: string) => html.includes('<span class="hljs-');

/** Code as models write it in each language, under the names they put on the fence. */
const ON_DEMAND: [string, string[], string][] = [
  ['csharp', ['csharp', 'cs', 'c#', 'C#'], 'public class A { string s = "x"; }'],
  ['php', ['php'], '<?php echo "hi"; $x = 1;'],
  ['ruby', ['ruby', 'rb'], 'def greet\n  puts "hi"\nend'],
  ['kotlin', ['kotlin', 'kt', 'kts'], 'fun main() { val s = "x" }'],
  ['swift', ['swift'], 'let s: String = "x"\nfunc f() {}'],
  ['ini', ['toml', 'ini'], '[package]\nname = "x"'],
  ['dockerfile', ['dockerfile', 'docker', 'Dockerfile'], 'FROM node:20\nRUN npm ci'],
  ['powershell', ['powershell', 'ps1', 'pwsh'], 'Get-ChildItem -Path "C:\\" | Where-Object { $_.Length -gt 1 }'],
  ['r', ['r', 'R', '{r, echo=FALSE}'], 'x <- c(1, 2, 3)\nprint("mean")'],
  ['lua', ['lua'], 'local s = "x"\nfunction f() end'],
  ['scala', ['scala'], 'object A { val s = "x" }'],
];

/** The bundled languages, under their usual fence names: coloured from the first render. */
const BUNDLED: Record<string, string> = {
  go: 'func main() { s := "x" }', golang: 'var s = "x"', rust: 'fn main() { let s = "x"; }', rs: 'let s = "x";',
  java: 'public class A { String s = "x"; }', c: 'int main(void) { return 0; }', cpp: 'std::string s = "x";', 'c++': 'int x = 1;',
  sql: 'SELECT * FROM t WHERE a = 1;', postgresql: 'SELECT 1;', mysql: 'SELECT 1;', yaml: 'a: "x"', yml: 'a: "x"',
  bash: 'echo "x"', sh: 'echo "x"', zsh: 'echo "x"', shell: 'echo "x"', console: 'echo "x"', json: '{"a": 1}', jsonl: '{"a": 1}',
  typescript: 'const s: string = "x";', ts: 'const s = "x";', tsx: 'const s = "x";', html: '<p class="x">a</p>', xml: '<a b="c"/>',
  css: 'p { color: red; }', markdown: '# Title', md: '# Title', diff: '+ added\n- removed', javascript: 'const s = "x";', js: 'let s = "x";',
  python: 'def f(): return "x"', py: 'x = "a"',
};

describe('code highlighting in every language models write', () => {
  it('colours the bundled languages under their usual names on the first render, asking for nothing', () => {
    for (const [word, code] of Object.entries(BUNDLED)) expect(coloured(markdownToHtml(fence(word, code))), word).toBe(true);
    expect(takeWantedGrammars()).toEqual([]);
  });

  it('loads C#, PHP, Ruby, Kotlin, Swift, TOML, Dockerfile, PowerShell, R, Lua and Scala on demand, under their aliases', async () => {
    for (const [language, words, code] of ON_DEMAND) {
      // Not in the markdown chunk: the first render is plain and asks for the grammar.
      expect(coloured(markdownToHtml(fence(words[0]!, code))), language).toBe(false);
      expect(takeWantedGrammars(), language).toEqual([language]);
      await loadGrammar(language);
      for (const word of words) {
        const html = markdownToHtml(fence(word, code));
        expect(coloured(html), word).toBe(true);
        // The label stays the name the model wrote.
        expect(html).toContain('<span>' + word.toLowerCase().replace(/^\{|,.*$/g, '') + '</span>');
      }
    }
    // A Dockerfile's RUN lines are bash (an embedded grammar).
    expect(markdownToHtml(fence('dockerfile', 'RUN if [ -f x ]; then echo "y"; fi'))).toContain('hljs-string');
    expect(takeWantedGrammars()).toEqual([]);
  });

  it('draws a chunk again, coloured, once the grammar it waited for is in, and caches only that version', async () => {
    const onMore = vi.fn();
    whenMoreReady(onMore);
    // A language no case above loaded.
    const text = fence('ex', 'defmodule A do\n  def f, do: "x"\nend');
    expect(coloured(renderMarkdown(text))).toBe(false);
    await vi.waitFor(() => expect(onMore).toHaveBeenCalled());
    // The plain version was not kept.
    expect(coloured(renderMarkdown(text))).toBe(true);
  });
});
