// Deterministic demo documents in Dolma's format: clean pages from real sentences plus planted duplicates, boilerplate, PII and junk.
import { COOKIE_BANNER, FOOTERS, JAVASCRIPT_NOTICE, contactList, foreignPage, hashtagSpam, loremPage, piiSentence, shortJunk } from './planted.js';
import { SentenceSource, between, pick, prng, type Rand } from './text.js';

export type Planted = 'clean' | 'exact_duplicate' | 'near_duplicate' | 'boilerplate' | 'pii' | 'contact_list' | 'lorem_ipsum' | 'javascript' | 'hashtag_spam' | 'short' | 'non_english';
export type Source = 'web' | 'forum' | 'books';

export interface DemoDocument {
  id: string;
  text: string;
  source: Source;
  added: string;
  created: string;
  metadata: { url: string; planted: Planted; language?: string; duplicate_of?: string };
}

/** Shares of each planted kind; the rest are clean pages. */
const SHARES: [Planted, number][] = [
  ['exact_duplicate', 0.04],
  ['near_duplicate', 0.05],
  ['boilerplate', 0.12],
  ['pii', 0.08],
  ['contact_list', 0.015],
  ['lorem_ipsum', 0.025],
  ['javascript', 0.03],
  ['hashtag_spam', 0.02],
  ['short', 0.05],
  ['non_english', 0.03],
];

function drawKind(rand: Rand): Planted {
  let x = rand();
  for (const [kind, share] of SHARES) {
    if (x < share) return kind;
    x -= share;
  }
  return 'clean';
}

const SHAPE: Record<Source, { paragraphs: [number, number]; sentences: [number, number] }> = {
  web: { paragraphs: [3, 6], sentences: [3, 6] },
  forum: { paragraphs: [1, 3], sentences: [3, 6] },
  books: { paragraphs: [5, 9], sentences: [4, 8] },
};

function cleanText(src: SentenceSource, rand: Rand, source: Source): string {
  const s = SHAPE[source];
  return Array.from({ length: between(rand, ...s.paragraphs) }, () => src.paragraph(...s.sentences)).join('\n');
}

/** A copy with a few words changed and a closing line: MinHash still puts it in its original's cluster. */
function nearCopy(rand: Rand, text: string): string {
  const words = text.split(' ');
  for (let i = Math.max(1, Math.floor(words.length / 60)); i > 0; i--) words[Math.floor(rand() * words.length)] = pick(rand, ['really', 'indeed', 'also', 'still', 'quite']);
  return `${words.join(' ')}\n${pick(rand, ['Updated on Monday.', 'Thanks for reading.', 'Reposted with permission.'])}`;
}

function withLine(rand: Rand, text: string, line: string): string {
  const paragraphs = text.split('\n');
  paragraphs.splice(between(rand, 1, paragraphs.length), 0, line);
  return paragraphs.join('\n');
}

export function generateDocuments(count: number, seed: number): DemoDocument[] {
  const rand = prng(seed);
  const src = new SentenceSource(prng(seed ^ 0x5eed));
  const docs: DemoDocument[] = [];
  const originals: DemoDocument[] = [];
  const base = Date.UTC(2024, 0, 1);
  for (let i = 0; i < count; i++) {
    let kind = drawKind(rand);
    if ((kind === 'exact_duplicate' || kind === 'near_duplicate') && originals.length === 0) kind = 'clean';
    const source: Source = kind === 'clean' ? pick(rand, ['web', 'web', 'forum', 'books'] as const) : kind === 'hashtag_spam' || kind === 'pii' || kind === 'short' ? pick(rand, ['web', 'forum'] as const) : 'web';
    const id = `${source}-${String(i).padStart(6, '0')}`;
    const meta: DemoDocument['metadata'] = { url: `https://${source === 'web' ? 'www.northwind-news.example' : source === 'forum' ? 'forum.example.org' : 'library.example.net'}/${id}`, planted: kind };
    let text: string;
    switch (kind) {
      case 'exact_duplicate':
      case 'near_duplicate': {
        const original = pick(rand, originals);
        text = kind === 'exact_duplicate' ? original.text : nearCopy(rand, original.text);
        meta.duplicate_of = original.id;
        break;
      }
      case 'boilerplate':
        text = withLine(rand, cleanText(src, rand, source), rand() < 0.5 ? COOKIE_BANNER : pick(rand, FOOTERS));
        break;
      case 'pii':
        text = withLine(rand, cleanText(src, rand, source), piiSentence(rand));
        break;
      case 'contact_list':
        text = contactList(rand);
        break;
      case 'lorem_ipsum':
        text = loremPage(rand);
        break;
      case 'javascript':
        text = withLine(rand, cleanText(src, rand, source), JAVASCRIPT_NOTICE);
        break;
      case 'hashtag_spam':
        text = hashtagSpam(rand);
        break;
      case 'short':
        text = shortJunk(rand);
        break;
      case 'non_english': {
        const f = foreignPage(rand);
        text = f.text;
        meta.language = f.lang;
        break;
      }
      case 'clean':
        text = cleanText(src, rand, source);
        break;
    }
    const created = new Date(base - between(rand, 30, 900) * 86_400_000).toISOString();
    const doc: DemoDocument = { id, text, source, added: new Date(base + i * 60_000).toISOString(), created, metadata: meta };
    docs.push(doc);
    if (kind === 'clean' && source !== 'forum') originals.push(doc);
  }
  return docs;
}
