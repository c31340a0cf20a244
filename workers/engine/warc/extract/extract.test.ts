// Main-text extraction: the formatting rules (blocks, <br>, lists, tables, headings, <pre>) and the furniture each extractor drops.
import { describe, expect, it } from 'vitest';
import { heapKept } from '../../testing.js';
import { DEFAULT_EXTRACTOR, EXTRACTORS, extractMainText } from './index.js';

const LOREM = 'The committee met on Tuesday to review the proposal in detail, and every member had read the draft beforehand so the discussion could move quickly.';

const PAGE = `<!doctype html><html><head><title>Page title</title><style>.menu { color: red }</style>
<script>var tracking = "SCRIPTTEXT";</script></head><body>
<header class="site-header"><a href="/">SiteName</a></header>
<nav><ul><li><a href="/a">NavAlpha</a></li><li><a href="/b">NavBeta</a></li></ul></nav>
<div class="layout"><div class="content">
  <h2>Meeting notes</h2>
  <p>${LOREM} First   paragraph
  ends here.</p>
  <p>${LOREM} Line one<br>Line two</p>
  <ul><li>apple pie</li><li>banana <em>split</em></li></ul>
  <table><tr><th>Name</th><th>Score</th></tr><tr><td>Ada</td><td>42</td></tr></table>
  <pre>def f(x):
    return x</pre>
  <p>${LOREM} Closing words.</p>
</div>
<div class="sidebar"><h3>SidebarHeading</h3><a href="/x">SideLink</a></div></div>
<aside>AsideText</aside>
<footer>FooterText © 2024</footer>
</body></html>`;

const FURNITURE = ['SCRIPTTEXT', 'color: red', 'NavAlpha', 'SiteName', 'SidebarHeading', 'AsideText', 'FooterText'];

describe.each(EXTRACTORS.filter((e) => e !== 'wet'))('extractor %s', (name) => {
  const text = extractMainText(PAGE, 'https://example.org/notes', name);

  it('drops script, style, nav, header, sidebar, aside and footer', () => {
    for (const f of FURNITURE) expect(text).not.toContain(f);
  });

  it('separates blocks by a blank line and collapses inline whitespace', () => {
    expect(text).toContain('Meeting notes\n\n');
    expect(text).toContain(' First paragraph ends here.\n\n');
  });

  it('turns <br> into a single newline', () => {
    expect(text).toContain('Line one\nLine two\n\n');
  });

  it('keeps list items one per line and table rows with tab-separated cells', () => {
    expect(text).toContain('apple pie\nbanana split');
    expect(text).toContain('Name\tScore\nAda\t42');
  });

  it('keeps <pre> line structure and indentation', () => {
    expect(text).toContain('def f(x):\n    return x');
  });

  it('keeps the text in page order, first heading to last paragraph', () => {
    expect(text.startsWith('Meeting notes')).toBe(true);
    expect(text.endsWith('Closing words.')).toBe(true);
  });
});

describe('wet baseline and the interface', () => {
  it('wet keeps every visible text, menus and footer included, but never script or style', () => {
    const text = extractMainText(PAGE, '', 'wet');
    for (const f of ['NavAlpha', 'SiteName', 'SidebarHeading', 'AsideText', 'FooterText', 'Meeting notes']) expect(text).toContain(f);
    expect(text).not.toContain('SCRIPTTEXT');
    expect(text).not.toContain('color: red');
  });

  it('defaults to a named extractor and rejects unknown names', () => {
    expect(EXTRACTORS).toContain(DEFAULT_EXTRACTOR);
    expect(extractMainText(PAGE, '')).toBe(extractMainText(PAGE, '', DEFAULT_EXTRACTOR));
    expect(() => extractMainText(PAGE, '', 'nope')).toThrow(/unknown extractor 'nope'/);
  });

  it('returns an empty string for a page without text', () => {
    for (const e of EXTRACTORS) expect(extractMainText('<html><body><script>x()</script></body></html>', '', e)).toBe('');
  });

  it('drops hidden elements and elements with furniture class words, not look-alike words', () => {
    const html = `<body><div><p>${LOREM}</p><p hidden>HiddenText</p><div class="cookie-banner">CookieText</div>
      <p class="navigator-notes">${LOREM} KeptText</p></div></body>`;
    const text = extractMainText(html, '', 'density');
    expect(text).toContain('KeptText');
    expect(text).not.toContain('HiddenText');
    expect(text).not.toContain('CookieText');
  });

  it('keeps a text box classed "sidebar" inside the content (DocBook) but drops a link list classed "related"', () => {
    const html = `<body><div class="section"><p>${LOREM}</p><div class="sidebar"><p>BoxedNote ${LOREM}</p></div>
      <div class="related"><a href="/1">RelatedOne</a> <a href="/2">RelatedTwo</a></div><p>${LOREM}</p></div></body>`;
    const text = extractMainText(html, '', 'density');
    expect(text).toContain('BoxedNote');
    expect(text).not.toContain('RelatedOne');
  });

  it('reads a section whose id is a heading slug naming furniture ("search", "copyright") as content', () => {
    const html = `<body><div><section id="copyright"><h1>Copyright</h1><p>${LOREM}</p></section>
      <section id="the-module-search-path"><h2>SearchPathHeading</h2><p>${LOREM}</p></section></div><div id="footer">FooterText</div></body>`;
    const text = extractMainText(html, '', 'density');
    expect(text).toContain('Copyright\n\n');
    expect(text).toContain('SearchPathHeading');
    expect(text).not.toContain('FooterText');
  });

  it('keeps a heading with the table of contents below it rather than the heading alone', () => {
    const links = Array.from({ length: 30 }, (_, i) => `<li><a href="/p${i}">Chapter number ${i} of the guide</a></li>`).join('');
    const text = extractMainText(`<body><div><h1>Contents</h1><ul>${links}</ul></div></body>`, '', 'density');
    expect(text).toContain('Contents\n\nChapter number 0 of the guide\nChapter number 1');
  });

  it('keeps all text nested in thousands of unclosed inline tags, past the depth the tree walks can recurse', () => {
    for (const depth of [1000, 20_000]) {
      const html = `<body><nav>MenuText</nav><p>${'<font>word '.repeat(depth)}</p></body>`;
      for (const e of EXTRACTORS.filter((x) => x !== 'readability')) {
        const text = extractMainText(html, '', e);
        expect(text.split(' ').length).toBe(depth);
        if (e !== 'wet') expect(text).not.toContain('MenuText');
      }
    }
  });
});

describe('boilerplate names', () => {
  it('are remembered as copies, not views into the pages (60 pages of 0.3 MB, each with a class of its own, stay collectable)', async () => {
    const kept = await heapKept(() => {
      for (let i = 0; i < 60; i++) {
        const html = `<html><body><div class="sidebar-widget-${i}-unique">menu</div><main>${'<p>Some article text here.</p>'.repeat(10_000)}</main></body></html>`;
        expect(extractMainText(html, 'https://example.com/').startsWith('Some article text here.')).toBe(true);
      }
    });
    // Views would keep all 18 MB; copies keep a few kilobytes.
    expect(kept).toBeLessThan(6e6);
  });
});
