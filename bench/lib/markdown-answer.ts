/**
 * A long markdown answer of the kinds a model writes (headings, paragraphs with inline code and emphasis,
 * fenced code blocks, tables, nested lists), cut into tokens of a few characters the way a tokenizer would.
 */
const SECTIONS = [
  (i: number) => `## Step ${i}: set up the project\n\nThis section explains **why** the \`config\` matters and how the *loader* reads it before anything runs.\n\n`,
  (i: number) => `\`\`\`ts\nexport function step${i}(input: string[]): Map<string, number> {\n  const counts = new Map<string, number>();\n  for (const word of input) counts.set(word, (counts.get(word) ?? 0) + 1);\n  return counts;\n}\n\`\`\`\n\n`,
  (i: number) => `| option | default | meaning |\n|---|---|---|\n| \`depth${i}\` | 3 | how deep the walk goes |\n| \`limit\` | 100 | most results kept |\n| \`strict\` | true | fail on unknown keys |\n\n`,
  (i: number) => `- first, install the tools (${i})\n  - node 20 or newer\n  - a C compiler for native modules\n- then run the build\n- finally, check the output with \`ls out\`\n\n`,
  (i: number) => `1. Read the error message carefully.\n2. Search for it in the issue tracker (item ${i}).\n3. If nothing matches, write a minimal reproduction.\n\n> Note: a quote block that spans a long line of text, to make the paragraph wrap at least once on a normal window.\n\n`,
];

export function markdownTokens(count: number): string[] {
  const tokens: string[] = [];
  for (let i = 0; tokens.length < count; i++) {
    const text = SECTIONS[i % SECTIONS.length]!(i);
    // Words with their leading space, and newlines and punctuation runs on their own: roughly 4 characters each.
    for (const m of text.matchAll(/ ?[A-Za-z0-9]{1,6}|\n|[^A-Za-z0-9\n ]+| /g)) {
      tokens.push(m[0]);
      if (tokens.length === count) break;
    }
  }
  return tokens;
}
