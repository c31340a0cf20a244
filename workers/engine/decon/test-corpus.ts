// A generated corpus for decontamination tests and the bench: clean documents, eval items, and items planted at known offsets.

/** Pseudo-words of 2–3 consonant-vowel syllables: one spaCy token each, none a tokenizer exception. */
export function vocabulary(size: number, seed = 1): string[] {
  const rnd = lcg(seed);
  const syl = [...'bdfgklmnprstvz'].flatMap((c) => [...'aeiou'].map((v) => c + v));
  const seen = new Set<string>();
  while (seen.size < size) seen.add(Array.from({ length: 2 + rnd(2) }, () => syl[rnd(syl.length)]).join(''));
  return [...seen];
}

export function lcg(seed: number): (n: number) => number {
  let s = seed >>> 0 || 1;
  return (n) => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return (s >>> 8) % n;
  };
}

export interface EvalRow {
  id: string;
  question: string;
  choices: string[];
}

export interface Planted {
  docId: string;
  itemId: string;
  kind: 'whole' | 'truncated' | 'case-punct' | 'paragraph' | 'astral' | 'short';
  /** Words of the item that are in the document. */
  words: number;
  /** Code-point range of those words in the document text. */
  start: number;
  end: number;
  docLength: number;
}

interface Doc {
  id: string;
  text: string;
}

const cpLen = (s: string): number => [...s].length;

/** `clean` clean documents over 4 files, 40 eval items (8 of them shorter than 13 words), each planted 5 ways. */
export function plantedCorpus(clean: number): { files: Doc[][]; evalItems: EvalRow[]; planted: Planted[] } {
  const vocab = vocabulary(3000);
  const rnd = lcg(42);
  const words = (k: number): string[] => Array.from({ length: k }, () => vocab[rnd(vocab.length)] as string);
  const sentence = (): string => `${words(5 + rnd(15)).join(' ')}.`.replace(/^./, (c) => c.toUpperCase());
  const evalItems: EvalRow[] = Array.from({ length: 40 }, (_, k) => ({ id: `q${k}`, question: words(k < 8 ? 6 : 20 + rnd(16)).join(' '), choices: k < 8 ? [] : words(4) }));
  const itemWords = (e: EvalRow): string[] => [...e.question.split(' '), ...e.choices];
  const docs: Doc[] = [];
  for (let i = 0; i < clean; i++) docs.push({ id: `clean-${i}`, text: `${sentence()} ${sentence()}` });
  // Near misses: n-1 consecutive words of an item, and an item's words in reverse order.
  evalItems.slice(8).forEach((e, k) => {
    docs.push({ id: `near-${k}`, text: `${sentence()} ${itemWords(e).slice(3, 15).join(' ')}. ${sentence()}` });
    docs.push({ id: `reversed-${k}`, text: itemWords(e).reverse().join(' ') });
  });
  const planted: Planted[] = [];
  const plant = (e: EvalRow, kind: Planted['kind'], body: string, n: number, prefix = `${sentence()} `): void => {
    const text = `${prefix}${body} ${sentence()}`;
    const docId = `planted-${kind}-${e.id}`;
    docs.push({ id: docId, text });
    planted.push({ docId, itemId: e.id, kind, words: n, start: cpLen(prefix), end: cpLen(prefix) + cpLen(body), docLength: cpLen(text) });
  };
  for (const e of evalItems) {
    const w = itemWords(e);
    if (w.length < 13) {
      plant(e, 'short', w.join(' '), w.length);
      continue;
    }
    plant(e, 'whole', `${e.question.replace(/^./, (c) => c.toUpperCase())}? ${e.choices.join(', ')}`, w.length);
    plant(e, 'truncated', w.slice(0, 20).join(' '), 20);
    // Upper case, curly quotes around inner words, dashes between them: the same words once simplified.
    const inner = (k: number): boolean => k > 0 && k < w.length - 1 && k % 2 === 0;
    plant(e, 'case-punct', w.map((x, k) => (inner(k) ? `“${x}”` : x.toUpperCase())).join(' — '), w.length);
    plant(e, 'paragraph', `${w.slice(0, 9).join(' ')}\n\n${w.slice(9).join(' ')}`, w.length);
    plant(e, 'astral', w.join(' '), w.length, `😀 Café ${sentence()} 🎉 `);
  }
  // Spread over 4 files, the planted ones among the clean.
  const files: Doc[][] = [[], [], [], []];
  docs.forEach((d, k) => (files[k % 4] as Doc[]).push(d));
  return { files, evalItems, planted };
}
