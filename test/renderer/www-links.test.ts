import { describe, expect, it } from 'vitest';
import { markdownToHtml } from '../../src/renderer/markdown/to-html';
import { linkPolicy } from '../../src/main/shell/ipc-guard';

describe('an address a model writes without its scheme', () => {
  it('www.example.com is a link that opens outside the app as http://, like the others', () => {
    const html = markdownToHtml('Visit www.example.com, or (www.example.org/docs?page=2).');
    expect(html).toContain('<a href="http://www.example.com" title="http://www.example.com" target="_blank" rel="noopener noreferrer">www.example.com</a>,');
    expect(html).toContain('(<a href="http://www.example.org/docs?page=2" title="http://www.example.org/docs?page=2" target="_blank" rel="noopener noreferrer">www.example.org/docs?page=2</a>).');
    // The shell hands it to the system browser, as it does any http(s) link the page opens.
    expect(linkPolicy('http://www.example.com')).toEqual({ action: 'open-external', url: 'http://www.example.com/' });
  });

  it('file names, bare domains and code stay text', () => {
    for (const text of ['Edit config.json and README.md, then run setup.py', 'See example.com', 'Set `www.example.com` as the host', 'awww.example.com', 'Drop the www. prefix']) {
      expect(markdownToHtml(text), text).not.toContain('<a ');
    }
  });
});
