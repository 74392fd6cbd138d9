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

/** The HTML as the GFM spec's examples write it: without the hover title, target and rel, and the blocks' dir. */
const gfm = (text: string) =>
  markdownToHtml(text)
    .replace(/ title="[^"]*" target="_blank" rel="noopener noreferrer"/g, '')
    .replace(/ dir="auto"/g, '')
    .trim();

// GFM spec 0.29-gfm, "Autolinks (extension)": its extended www autolink examples, each input with its output.
const SPEC_EXAMPLES: [string, string][] = [
  ['www.commonmark.org', '<p><a href="http://www.commonmark.org">www.commonmark.org</a></p>'],
  [
    'Visit www.commonmark.org/help for more information.',
    '<p>Visit <a href="http://www.commonmark.org/help">www.commonmark.org/help</a> for more information.</p>',
  ],
  [
    'Visit www.commonmark.org.\n\nVisit www.commonmark.org/a.b.',
    '<p>Visit <a href="http://www.commonmark.org">www.commonmark.org</a>.</p>\n<p>Visit <a href="http://www.commonmark.org/a.b">www.commonmark.org/a.b</a>.</p>',
  ],
  [
    'www.google.com/search?q=Markup+(business)\n\nwww.google.com/search?q=Markup+(business)))\n\n(www.google.com/search?q=Markup+(business))\n\n(www.google.com/search?q=Markup+(business)',
    [
      '<p><a href="http://www.google.com/search?q=Markup+(business)">www.google.com/search?q=Markup+(business)</a></p>',
      '<p><a href="http://www.google.com/search?q=Markup+(business)">www.google.com/search?q=Markup+(business)</a>))</p>',
      '<p>(<a href="http://www.google.com/search?q=Markup+(business)">www.google.com/search?q=Markup+(business)</a>)</p>',
      '<p>(<a href="http://www.google.com/search?q=Markup+(business)">www.google.com/search?q=Markup+(business)</a></p>',
    ].join('\n'),
  ],
  // Before: the link stopped at the ")" it could not pair.
  [
    'www.google.com/search?q=(business))+ok',
    '<p><a href="http://www.google.com/search?q=(business))+ok">www.google.com/search?q=(business))+ok</a></p>',
  ],
  // Before: the link took "&hl" and left only the ";" out.
  [
    'www.google.com/search?q=commonmark&hl=en\n\nwww.google.com/search?q=commonmark&hl;',
    '<p><a href="http://www.google.com/search?q=commonmark&amp;hl=en">www.google.com/search?q=commonmark&amp;hl=en</a></p>\n<p><a href="http://www.google.com/search?q=commonmark">www.google.com/search?q=commonmark</a>&amp;hl;</p>',
  ],
  ['www.commonmark.org/he<lp', '<p><a href="http://www.commonmark.org/he">www.commonmark.org/he</a>&lt;lp</p>'],
];

describe("GFM's extended www autolink", () => {
  it.each(SPEC_EXAMPLES)('reads %j as the spec does', (text, html) => {
    expect(gfm(text)).toBe(html);
  });

  // "A valid domain consists of segments of alphanumeric characters, underscores (_) and hyphens (-) separated by
  // periods (.). There must be at least one period, and no underscores may be present in the last two segments."
  // Before: www.localhost (and with a port, or www.[::1]) was a link, and so was the www.xxx.yyy of www.xxx.yyy._zzz.
  it('needs a valid domain after www.: at least one period, no underscore in its last two segments', () => {
    for (const text of ['www.localhost', 'Run it on www.localhost:8080/app', 'www.foo', 'www.[::1]/x', 'www.foo_bar.com', 'www.xxx._yyy.zzz', 'www.xxx.yyy._zzz', 'www..com']) {
      expect(gfm(text), text).not.toContain('<a ');
    }
    expect(gfm('www.foo.bar')).toBe('<p><a href="http://www.foo.bar">www.foo.bar</a></p>');
    // An underscore before the last two segments is allowed; before, linkify-it's host refused it.
    expect(gfm('www._xxx.yyy.zzz')).toBe('<p><a href="http://www._xxx.yyy.zzz">www._xxx.yyy.zzz</a></p>');
    expect(gfm('See www.a-b.example:8080/x.')).toBe('<p>See <a href="http://www.a-b.example:8080/x">www.a-b.example:8080/x</a>.</p>');
  });

  it('leaves the trailing punctuation the spec names out of the link: ? ! . , : * _ ~', () => {
    expect(gfm('Open www.example.com/path: then www.example.com/a_ too')).toBe(
      '<p>Open <a href="http://www.example.com/path">www.example.com/path</a>: then <a href="http://www.example.com/a">www.example.com/a</a>_ too</p>',
    );
  });
});
