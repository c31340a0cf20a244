// The `readability` extractor: Firefox Reader View's @mozilla/readability on a linkedom DOM, its article HTML rendered by render.ts.
import { Readability } from '@mozilla/readability';
import { parseDocument } from 'htmlparser2';
import { parseHTML } from 'linkedom';
import { renderText } from './render.js';

export function extractReadability(html: string, url: string): string {
  const { document } = parseHTML(html);
  // Readability resolves relative links against the document's URL; linkedom has none unless we give it a <base>.
  if (url && document.head && !document.querySelector('base')) {
    const base = document.createElement('base');
    base.setAttribute('href', url);
    document.head.appendChild(base);
  }
  const article = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0]).parse();
  if (!article?.content) return '';
  return renderText(parseDocument(article.content));
}
