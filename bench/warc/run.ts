// bench/warc: main-text extraction on Debian's python3-doc and debian-handbook HTML, fetched into a WARC by wget: P/R/F1 and pages/s per core.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_EXTRACTOR, EXTRACTORS } from '../../workers/engine/warc/extract/index.js';
import { DATA_DIR, runMeasured, SMOKE, stringArg } from '../args.js';
import { loadPages } from './pages.js';
import { resolveCorpora } from './corpus.js';
import { measure, type Measurement } from './measure.js';
import { prf } from './score.js';

const extractors = stringArg('extractors', EXTRACTORS.join(',')).split(',');

/** A fresh process pinned to core 0 per (corpus, extractor), so no run inherits another's heap or JIT state. */
function inFreshProcess(cache: string, extractor: string): Measurement {
  const self = fileURLToPath(import.meta.url);
  const node = [process.execPath, '--import', 'tsx', self, '--measure', extractor, '--cache', cache];
  return runMeasured<Measurement>(node, `${extractor} on ${cache}`, { maxBuffer: 1 << 24 });
}

const f3 = (x: number): string => x.toFixed(3);

function row(m: Measurement): string {
  const s = prf(m.sum);
  const n = m.pages;
  const name = m.extractor + (m.extractor === DEFAULT_EXTRACTOR ? ' (default)' : m.extractor === 'wet' ? ' (baseline)' : '');
  return `  ${name.padEnd(22)} ${f3(s.p)}  ${f3(s.r)}  ${f3(s.f1)}   ${f3(m.perPage.p / n)}  ${f3(m.perPage.r / n)}  ${f3(m.perPage.f1 / n)}   ${(n / m.sec).toFixed(0).padStart(6)}  ${(m.bytes / 1e6 / m.sec).toFixed(1).padStart(5)}`;
}

const mi = process.argv.indexOf('--measure');
if (mi >= 0) {
  process.stdout.write(JSON.stringify(measure(stringArg('cache', ''), process.argv[mi + 1] as string)) + '\n');
} else {
  const say = (lines: string[]): boolean => process.stdout.write(lines.join('\n') + '\n');
  say([`bench/warc — extracted text vs each page's main content element, bag of words; one pinned core per run${SMOKE ? ' (smoke fixtures: numbers mean nothing)' : ''}`]);
  for (const c of resolveCorpora()) {
    const loaded = await loadPages(c);
    const dir = join(DATA_DIR, 'warc');
    mkdirSync(dir, { recursive: true });
    const cache = join(dir, `${c.name}.pages.json`);
    writeFileSync(cache, JSON.stringify(loaded.pages));
    const mb = loaded.pages.reduce((a, p) => a + Buffer.byteLength(p.html), 0) / 1e6;
    const out = ['', `${c.name}: ${loaded.pages.length} pages with a ${c.selector} (${mb.toFixed(1)} MB of HTML), ${loaded.from}`];
    out.push(`  ${'extractor'.padEnd(22)} P      R      F1      P/page R/page F1/page  pages/s  MB/s`);
    const ms = extractors.map((e) => inFreshProcess(cache, e));
    for (const m of ms) out.push(row(m));
    const def = ms.find((m) => m.extractor === DEFAULT_EXTRACTOR);
    const wet = ms.find((m) => m.extractor === 'wet');
    if (def && wet) {
      const d = prf(def.sum).p - prf(wet.sum).p;
      const dp = (def.perPage.p - wet.perPage.p) / def.pages;
      out.push(`  ${DEFAULT_EXTRACTOR} precision above the baseline's: ${d >= 0 ? '+' : ''}${f3(d)} (tokens summed), ${dp >= 0 ? '+' : ''}${f3(dp)} (mean per page)`);
    }
    say(out);
  }
}
