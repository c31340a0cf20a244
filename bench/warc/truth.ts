// Ground truth of the extraction bench: the text of a page's main content element, found by a plain DOM query the extractors never see.
import { parseHTML } from 'linkedom';

export interface CorpusDef {
  name: string;
  /** Where Debian installs the HTML (the apt package named in `apt`). */
  root: string;
  apt: string;
  /** The page's main content element, as the generator of the HTML marks it. */
  selector: string;
}

export const CORPORA: readonly CorpusDef[] = [
  // Sphinx marks the article body `<div class="body" role="main">`; sidebars, related bars and the footer sit outside it.
  { name: 'python3-doc', root: '/usr/share/doc/python3/html', apt: 'python3-doc', selector: 'div[role=main]' },
  // Publican puts the banner, the title links and both docnav bars beside one top-level div (section, chapter, preface, appendix, book).
  { name: 'debian-handbook', root: '/usr/share/doc/debian-handbook/html/en-US', apt: 'debian-handbook', selector: 'body > div:not(#banner)' },
];

const SILENT = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE']);
// Inline elements join their text to the neighbours' (`<b>W</b>ord` is one word); every other element boundary separates words.
const INLINE = new Set(['A', 'ABBR', 'ACRONYM', 'B', 'BDI', 'BDO', 'CITE', 'CODE', 'DFN', 'EM', 'I', 'KBD', 'MARK', 'Q', 'S', 'SAMP', 'SMALL', 'SPAN', 'STRONG', 'SUB', 'SUP', 'TT', 'U', 'VAR']);

interface DomNode { nodeType: number; nodeName: string; textContent: string | null; childNodes: ArrayLike<DomNode> }

function collect(node: DomNode, out: string[]): void {
  if (node.nodeType === 3) {
    out.push(node.textContent ?? '');
    return;
  }
  if (node.nodeType !== 1 || SILENT.has(node.nodeName)) return;
  const sep = INLINE.has(node.nodeName) ? '' : ' ';
  out.push(sep);
  for (let i = 0; i < node.childNodes.length; i++) collect(node.childNodes[i] as DomNode, out);
  out.push(sep);
}

/** The text of the first element matching `selector`, or null when the page has none. */
export function truthText(html: string, selector: string): string | null {
  const { document } = parseHTML(html);
  const el = document.querySelector(selector) as unknown as DomNode | null;
  if (!el) return null;
  const out: string[] = [];
  collect(el, out);
  return out.join('');
}
