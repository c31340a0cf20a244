// Test documents for FineWeb-style chains: varied English prose that passes FineWeb's filters, plus pages each filter drops.

/** Varied English sentences (a fixed pseudo-random walk over a vocabulary), so Gopher's repetition rules pass. */
const VOCAB = (
  'river town people market morning evening bridge garden school teacher children family winter summer ' +
  'history museum library window kitchen station harbor island forest village mountain valley weather ' +
  'painter author doctor farmer student village council newspaper company engine journey letter story'
).split(' ');
const STOP = ['the', 'and', 'of', 'to', 'with', 'that', 'a', 'in'];

/** Documents with `metadata.url` (url_filter reads it); ids say what each one is. */
export function finewebDocs(extra = 0): { id: string; text: string; metadata: { url: string } }[] {
  let seed = 7;
  const next = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const sentence = (): string => {
    const w = Array.from({ length: 9 + next(8) }, (_, i) => (i % 3 === 1 ? STOP[next(STOP.length)] : VOCAB[next(VOCAB.length)]) as string);
    return `${w.join(' ').replace(/^./, (c) => c.toUpperCase())}.`;
  };
  const para = (n: number): string => Array.from({ length: n }, sentence).join(' ');
  const docs = [
    { id: 'good', text: `${para(6)}\n${para(5)}\nWrite to jane.doe@example.net for details.\n${para(4)}`, metadata: { url: 'https://example.com/a' } },
    { id: 'short', text: 'Too short.', metadata: { url: 'https://example.com/b' } },
    { id: 'french', text: `${'Ceci est une phrase en français sur la rivière et la ville. '.repeat(30)}`, metadata: { url: 'https://example.fr/c' } },
    { id: 'repetitive', text: `${'buy now buy now buy now.\n'.repeat(60)}`, metadata: { url: 'https://example.com/d' } },
    { id: 'good-2', text: `${para(8)}\n${para(7)}\nJavascript must be enabled to view this page.\n${para(6)}`, metadata: { url: 'https://example.org/e' } },
    { id: 'lists', text: Array.from({ length: 40 }, () => `- ${sentence()}`).join('\n'), metadata: { url: 'https://example.org/f' } },
    { id: 'ellipsis', text: Array.from({ length: 20 }, () => `${sentence().slice(0, -1)}...`).join('\n'), metadata: { url: 'https://example.org/g' } },
  ];
  for (let i = 0; i < extra; i++) docs.push({ id: `prose-${i}`, text: `${para(3 + next(6))}\n${para(2 + next(5))}`, metadata: { url: `https://example.net/p/${i}` } });
  return docs;
}
