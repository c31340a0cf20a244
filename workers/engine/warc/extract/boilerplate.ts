// Tag, role, class/id and visibility rules that mark an element as page furniture (menus, sidebars, footers, search boxes, banners).
import type { Element } from 'domhandler';

const TAGS = new Set(['nav', 'footer', 'aside', 'header', 'menu', 'dialog']);
const ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search', 'menu', 'menubar', 'dialog', 'alertdialog', 'toolbar']);
// Whole words of a class or id (split on space, `-` and `_`), as site templates name their furniture.
const WORDS = new Set([
  'nav', 'navbar', 'navigation', 'menu', 'menubar', 'sidebar', 'sidenav', 'footer', 'breadcrumb', 'breadcrumbs', 'related', 'share',
  'sharing', 'social', 'cookie', 'cookies', 'consent', 'banner', 'docnav', 'advert', 'advertisement', 'ads', 'promo', 'newsletter',
  'subscribe', 'comments', 'pagination', 'pager', 'widget', 'toolbar', 'masthead', 'copyright', 'skip', 'search', 'searchbox', 'popup', 'modal',
]);
// Glued spellings the word split misses (Sphinx's `sphinxsidebar`, `sphinxsidebarwrapper`).
const GLUED = /sidebar|navbar|breadcrumb|searchbox/i;

function namesFurniture(value: string | undefined): boolean {
  if (!value) return false;
  if (GLUED.test(value)) return true;
  for (const w of value.toLowerCase().split(/[\s_-]+/)) if (WORDS.has(w)) return true;
  return false;
}

/** True when `el` is boilerplate by its tag, ARIA role, class/id words, or because it is hidden. */
export function isBoilerplate(el: Element): boolean {
  if (TAGS.has(el.name)) return true;
  const a = el.attribs;
  if (a.role !== undefined && ROLES.has(a.role)) return true;
  if (a.hidden !== undefined || a['aria-hidden'] === 'true') return true;
  if (a.style !== undefined && /display\s*:\s*none|visibility\s*:\s*hidden/i.test(a.style)) return true;
  // Body, html and main-like containers never count: a site that classes <body> "has-sidebar" still has content in it.
  if (el.name === 'body' || el.name === 'html' || el.name === 'main' || el.name === 'article') return false;
  return namesFurniture(a.class) || namesFurniture(a.id);
}
