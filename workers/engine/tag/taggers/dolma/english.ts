// Deterministic English-like corpus for the speed and scaling tests: Zipf words, sentences, paragraphs, some PII.
import { rng } from './test-helpers.js';

const WORDS = (
  'the of and to a in is it you that he was for on are with as I his they be at one have this from or had by hot ' +
  'word but what some we can out other were all there when up use your how said an each she which do their time if ' +
  'will way about many then them write would like so these her long make thing see him two has look more day could ' +
  'go come did number sound no most people my over know water than call first who may down side been now find any ' +
  'new work part take get place made live where after back little only round man year came show every good me give ' +
  'our under name very through just form sentence great think say help low line differ turn cause much mean before ' +
  'move right boy old too same tell does set three want air well also play small end put home read hand port large ' +
  'spell add even land here must big high such follow act why ask men change went light kind off need house picture ' +
  'try us again animal point mother world near build self earth father head stand own page should country found ' +
  'answer school grow study still learn plant cover food sun four between state keep eye never last let thought city ' +
  'tree cross farm hard start might story saw far sea draw left late run while press close night real life few north'
).split(' ');

/** Documents of 1–8 KB, `totalBytes` in all, the same for a given seed. */
export function englishDocs(totalBytes: number, seed = 42): string[] {
  const next = rng(seed);
  // Zipf-like: squaring a uniform draw favours the frequent words at the front of the list.
  const word = () => WORDS[Math.floor(next() ** 2 * WORDS.length)]!;
  const docs: string[] = [];
  let total = 0;
  while (total < totalBytes) {
    const target = 1000 + Math.floor(next() * 7000);
    const paras: string[] = [];
    let size = 0;
    while (size < target) {
      const sentences: string[] = [];
      for (let s = 2 + Math.floor(next() * 5); s > 0; s--) {
        const n = 5 + Math.floor(next() * 20);
        const ws: string[] = [];
        for (let i = 0; i < n; i++) ws.push(word());
        ws[0] = ws[0]![0]!.toUpperCase() + ws[0]!.slice(1);
        if (next() < 0.2) ws.splice(1 + Math.floor(next() * (n - 1)), 0, ',');
        const r = next();
        if (r < 0.02) ws.push(`contact ${word()}.${word()}@example.org for more`);
        else if (r < 0.03) ws.push(`or call (555) 123-${1000 + Math.floor(next() * 9000)}`);
        else if (r < 0.035) ws.push(`from 10.0.${Math.floor(next() * 255)}.${Math.floor(next() * 255)}`);
        sentences.push(ws.join(' ').replace(/ ,/g, ',') + (next() < 0.9 ? '.' : '?'));
      }
      const para = sentences.join(' ');
      paras.push(para);
      size += para.length + 1;
    }
    const text = paras.join('\n');
    docs.push(text);
    total += text.length;
  }
  return docs;
}
