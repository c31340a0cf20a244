// Tag, role, class/id and visibility rules that mark an element as page furniture (menus, sidebars, footers, search boxes, banners).
import type { Element } from 'domhandler';
import { ownCopy } from '../../text/own-copy.js';

const TAGS = new Set(['nav', 'footer', 'aside', 'header', 'menu', 'dialog']);
const ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search', 'menu', 'menubar', 'dialog', 'alertdialog', 'toolbar']);
// Class/id words (split on space, `-` and `_`) that name furniture whatever it holds.
const STRONG = new Set([
  'footer', 'copyright', 'cookie', 'cookies', 'consent', 'banner', 'advert', 'advertisement', 'ads', 'promo', 'newsletter', 'subscribe',
  'comments', 'share', 'sharing', 'social', 'breadcrumb', 'breadcrumbs', 'popup', 'modal', 'skip', 'docnav', 'pagination', 'pager',
  'search', 'searchbox', 'masthead',
]);
// Words that name furniture on most sites but content boxes on some (DocBook's `sidebar` is a boxed note inside the text):
// inside the main content they count only when the element is mostly links.
const WEAK = new Set(['nav', 'navbar', 'navigation', 'menu', 'menubar', 'sidebar', 'sidenav', 'related', 'widget', 'toolbar']);
// Glued spellings the word split misses (Sphinx's `sphinxsidebar`, `sphinxsidebarwrapper`).
const GLUED_WEAK = /sidebar|navbar/i;
// Ids longer than this are slugs of headings (`module-search-path`), not template names.
const MAX_ID_WORDS = 3;

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

export type Named = 'strong' | 'weak' | null;

// A site reuses a few hundred class strings on every page: classify each once (bounded, so a hostile page cannot grow it forever).
const seen = new Map<string, Named>();

function classify(value: string | undefined, maxWords: number): Named {
  if (!value) return null;
  const key = maxWords === Infinity ? value : `#${value}`;
  const known = seen.get(key);
  if (known !== undefined) return known;
  const named = classifyWords(value, maxWords);
  if (seen.size > 50_000) seen.clear();
  // A copy: the parser's attribute value is a view into the page, which the key would keep alive (text/own-copy.ts).
  seen.set(ownCopy(key), named);
  return named;
}

function classifyWords(value: string, maxWords: number): Named {
  const words = value.toLowerCase().split(/[\s_-]+/);
  if (words.length > maxWords) return null;
  let found: Named = null;
  for (const w of words) {
    if (STRONG.has(w)) return 'strong';
    if (WEAK.has(w)) found = 'weak';
  }
  return found ?? (GLUED_WEAK.test(value) ? 'weak' : null);
}

/** Furniture by its very element: tag, ARIA role, or hidden from the reader. */
export function isStructuralFurniture(el: Element): boolean {
  if (TAGS.has(el.name)) return true;
  const a = el.attribs;
  if (a.role !== undefined && ROLES.has(a.role)) return true;
  if (a.hidden !== undefined || a['aria-hidden'] === 'true') return true;
  return a.style !== undefined && /display\s*:\s*none|visibility\s*:\s*hidden/i.test(a.style);
}

/** Furniture by the names a template gives it (class or id words), graded strong or weak. */
export function namedFurniture(el: Element): Named {
  // Body, html and main-like containers never count: a site that classes <body> "has-sidebar" still has content in it.
  if (el.name === 'body' || el.name === 'html' || el.name === 'main' || el.name === 'article') return null;
  const a = el.attribs;
  const c = classify(a.class, Infinity);
  if (c === 'strong') return c;
  // A <section> or heading id is the heading's slug (Sphinx: `<section id="copyright">`), never a template name.
  if (el.name === 'section' || HEADINGS.has(el.name)) return c;
  return classify(a.id, MAX_ID_WORDS) ?? c;
}
