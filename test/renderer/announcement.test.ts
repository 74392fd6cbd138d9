import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ANNOUNCE_MAX_CHARS, announcement } from '../../src/renderer/components/frame/announcement';
import { speechText } from '../../src/renderer/markdown/to-speech';

describe('announcement', () => {
  it('reads a short answer whole, after the model that wrote it', () => {
    expect(announcement('Paris is the capital of France.', 'done', 'llama3.2:3b')).toBe('llama3.2:3b: Paris is the capital of France.');
    expect(announcement('Yes.', 'done')).toBe('Yes.');
  });

  it('says an answer ended without text unless it simply finished empty', () => {
    expect(announcement('', 'error', 'm')).toBe('m: the answer ended without text (error).');
    expect(announcement('', 'done', 'm')).toBe('');
  });

  it('says how an answer ended early, after its text or in place of it (the card is not an alert of its own)', () => {
    expect(announcement('', 'error', 'm', undefined, 'Error. model crashed: out of memory')).toBe('m: Error. model crashed: out of memory');
    expect(announcement('The story began', 'done', 'm', undefined, 'Stopped at the token limit.')).toBe('m: The story began … Stopped at the token limit.');
    const long = 'The loader reads the config before anything runs. '.repeat(200).trimEnd();
    expect(announcement(long, 'cut', 'm', undefined, 'Cut off.')).toMatch(/runs\. … Cut off\. The answer goes on in the chat, 1,600 words in all\.$/);
  });

  it('reads a long answer up to the end of a sentence, then says it goes on in the chat and how long it is', () => {
    const sentence = 'The loader reads the config before anything runs. ';
    const text = sentence.repeat(200).trimEnd();
    const said = announcement(text, 'done', 'm');
    expect(said.startsWith('m: The loader reads')).toBe(true);
    expect(said).toMatch(/runs\. … The answer goes on in the chat, 1,600 words in all\.$/);
    expect(said.length).toBeLessThan(ANNOUNCE_MAX_CHARS + 100);
  });

  it('cuts at a paragraph break when no sentence ends near the limit', () => {
    const para = `${'word '.repeat(150).trimEnd()}\n\n`;
    const said = announcement(para.repeat(10), 'done');
    // Two whole paragraphs (1,502 characters), not the words of a third up to the limit.
    expect(said.startsWith(`${para.repeat(2).trimEnd()} … The answer goes on in the chat, 1,500 words in all.`)).toBe(true);
  });

  it('cuts at a space in text with no sentence ends, and never mid-word', () => {
    const text = 'abcdefgh '.repeat(1000);
    const said = announcement(text, 'done');
    expect(said).toMatch(/abcdefgh … The answer goes on in the chat, 1,000 words in all\.$/);
  });

  it('always starts with the answer and stays a minute or two of speech, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'b', ' ', '.', '\n', 'é', '!'), maxLength: 6_000 }), (text) => {
        const said = announcement(text, 'done');
        if (text.length <= ANNOUNCE_MAX_CHARS) return said === text;
        const kept = said.slice(0, said.indexOf(' … The answer goes on in the chat'));
        return kept.length > 0 && text.startsWith(kept) && kept.length <= ANNOUNCE_MAX_CHARS;
      }),
    );
  });

  it('speaks a markdown answer without its markup, and counts its words, not its bullets and pipes', () => {
    expect(announcement('## Result\n\nIt is **done**.', 'done', 'm', speechText)).toBe('m: Result.\n\nIt is done.');
    const section = '### Step\n\n- Run `make` in the **root** folder, then wait for the build.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n';
    const text = section.repeat(60);
    const said = announcement(text, 'done', 'm', speechText);
    expect(said).toMatch(/^m: Step\.\n\nRun make in the root folder, then wait for the build\.\n\nTable, 1 row:/);
    expect(said).not.toMatch(/[#*`|]/);
    // Per section: Step, the item's 11 words, a, b, 1, 2.
    expect(said).toMatch(/\. … The answer goes on in the chat, 960 words in all\.$/);
    expect(said.length).toBeLessThan(ANNOUNCE_MAX_CHARS + 100);
  });

  it('says a task list’s boxes as to do and done, not as brackets', () => {
    expect(announcement('- [ ] Write the tests\n- [x] Fix the bug', 'done', 'm', speechText)).toBe('m: To do: Write the tests.\n\nDone: Fix the bug.');
  });

  it('reads all the speech of a long answer that is mostly code, then says it goes on', () => {
    const code = `\`\`\`js\n${'console.log(1);\n'.repeat(40)}\`\`\`\n\n`;
    const text = `Intro.\n\n${code.repeat(40)}`;
    // Words of the source: Intro, then per block its fence line and 40 lines of code.
    const said = announcement(text, 'done', undefined, speechText);
    expect(said.startsWith('Intro.\n\nCode in js, 40 lines, shown in the chat.')).toBe(true);
    expect(said).not.toContain('console.log');
    expect(said).toMatch(/shown in the chat\. … The answer goes on in the chat, 1,641 words in all\.$/);
  });
});
