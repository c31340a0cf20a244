// Speed of the Dolma taggers on ~20 MB of generated English, one core: node --import tsx <this file> [MB] [names…]
import { performance } from 'node:perf_hooks';
import { englishDocs } from './english.js';
import { dolmaTaggers } from './index.js';
import { doc } from './test-helpers.js';

const mb = Number(process.argv[2] ?? 20);
const only = process.argv.slice(3);
const docs = englishDocs(mb * 1e6);
const bytes = docs.reduce((s, d) => s + Buffer.byteLength(d), 0);
const inputs = docs.map((text, i) => doc(text, { id: `doc-${i}` }));
// One 10 MB text too; its "?" become ".", since pii_regex_with_counts_fast_v2 skips texts with > 10 000 "?".
const big = doc(docs.join('\n\n').slice(0, 10e6).replaceAll('?', '.'));
console.log(`${docs.length} documents, ${(bytes / 1e6).toFixed(1)} MB; single-document run on ${(big.text.length / 1e6).toFixed(1)} MB`);

for (const spec of dolmaTaggers) {
  if (spec.options !== undefined || (only.length > 0 && !only.includes(spec.name))) continue;
  const tagger = await spec.create({}, { seed: 1, cwd: process.cwd() });
  let t = performance.now();
  let spans = 0;
  for (const d of inputs) spans += tagger.tag(d).length;
  const docsMs = performance.now() - t;
  t = performance.now();
  tagger.tag(big);
  const bigMs = performance.now() - t;
  const rate = (ms: number, b: number) => ((b / 1e6) / (ms / 1000)).toFixed(1).padStart(7);
  console.log(`${spec.name.padEnd(40)} ${rate(docsMs, bytes)} MB/s (documents)  ${rate(bigMs, big.text.length)} MB/s (one 10 MB text)  ${spans} spans`);
}
