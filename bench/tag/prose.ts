// bench/tag's real-prose corpus: text no one here wrote (man pages, /usr/share/doc, Python docstrings, nlp-corpus).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { scaled } from '../args.js';

interface Doc {
  id: string;
  text: string;
  source: string;
  metadata: { url: string };
}

/** Each source fills up to this many characters, so the mix is the same whatever is installed in excess. */
const PER_SOURCE = scaled(1_200_000, 25_000);

/** Man pages rendered as a reader sees them (`man -P cat`, 80 columns), one page per document. */
function manPages(): Doc[] {
  const dir = '/usr/share/man/man1';
  if (!existsSync(dir)) return [];
  const names = readdirSync(dir).filter((n) => n.endsWith('.gz')).sort();
  const docs: Doc[] = [];
  let size = 0;
  // A stride through the sorted list spreads the pages over many packages instead of the first letters.
  const stride = Math.max(1, Math.floor(names.length / 600));
  for (let i = 0; i < names.length && size < PER_SOURCE; i += stride) {
    const r = spawnSync('man', ['-P', 'cat', '-l', join(dir, names[i] as string)], { encoding: 'utf8', env: { ...process.env, MANWIDTH: '80' }, timeout: 10_000 });
    const text = r.status === 0 ? r.stdout : '';
    if (text.length < 500 || text.length > 200_000) continue;
    const page = (names[i] as string).replace(/\.gz$/, '');
    docs.push({ id: `man-${page}`, text, source: 'man', metadata: { url: `https://manpages.debian.org/${page}` } });
    size += text.length;
  }
  return docs;
}

/** READMEs, copyright files and text/Markdown docs under /usr/share/doc, one file per document (first 30 KB). */
function usrShareDoc(): Doc[] {
  const files: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && /^(README.*|copyright|NEWS|.*\.md|.*\.txt)$/.test(e.name) && !e.name.endsWith('.gz')) files.push(p);
    }
  };
  if (existsSync('/usr/share/doc')) walk('/usr/share/doc');
  const docs: Doc[] = [];
  let size = 0;
  // Copyright files repeat the same licences: take every third, all the others.
  files.forEach((f, i) => {
    if (size >= PER_SOURCE || (f.endsWith('/copyright') && i % 3 !== 0) || statSync(f).size < 300) return;
    let text = readFileSync(f, 'utf8');
    if (text.length > 30_000) text = text.slice(0, text.lastIndexOf('\n', 30_000) + 1);
    docs.push({ id: `doc-${docs.length}`, text, source: 'usr-share-doc', metadata: { url: `https://sources.debian.org/src${f.slice('/usr/share/doc'.length)}` } });
    size += text.length;
  });
  return docs;
}

const DOCSTRINGS_PY = `
import importlib, inspect, json, sys, warnings
warnings.simplefilter('ignore')
out = []
for name in sorted(sys.stdlib_module_names):
    if name.startswith('_') or name in ('antigravity', 'this', 'idlelib', 'tkinter', 'turtle', 'turtledemo'): continue
    try: m = importlib.import_module(name)
    except BaseException: continue
    parts = [inspect.getdoc(m) or '']
    for _, obj in sorted(vars(m).items()):
        if (inspect.isfunction(obj) or inspect.isclass(obj)) and getattr(obj, '__module__', '') == name:
            parts.append(inspect.getdoc(obj) or '')
    text = '\\n\\n'.join(p for p in parts if len(p) > 80)
    if len(text) > 400: out.append([name, text[:40000]])
print(json.dumps(out))
`;

/** Docstrings of the Python standard library, one module (its own, its classes' and functions') per document. */
function pythonDocstrings(): Doc[] {
  const r = spawnSync('python3', ['-c', DOCSTRINGS_PY], { encoding: 'utf8', maxBuffer: 1 << 28, timeout: 120_000 });
  if (r.status !== 0) return [];
  const docs: Doc[] = [];
  let size = 0;
  for (const [name, text] of JSON.parse(r.stdout) as [string, string][]) {
    if (size >= PER_SOURCE) break;
    docs.push({ id: `py-${name}`, text, source: 'python-docstrings', metadata: { url: `https://docs.python.org/3/library/${name}.html` } });
    size += text.length;
  }
  return docs;
}

/** nlp-corpus's English sentences (reviews, news, UN documents), 20 to a document, every other one paragraph-broken. */
function nlpCorpus(): Doc[] {
  let dir: string;
  try {
    dir = join(dirname(createRequire(import.meta.url).resolve('nlp-corpus')), '../../builds');
  } catch {
    return [];
  }
  const docs: Doc[] = [];
  let size = 0;
  for (let f = 0; size < PER_SOURCE && existsSync(join(dir, `doc-${f}.json`)); f++) {
    const sentences = JSON.parse(readFileSync(join(dir, `doc-${f}.json`), 'utf8')) as string[];
    for (let i = 0; i < sentences.length && size < PER_SOURCE; i += 20) {
      const text = sentences.slice(i, i + 20).join(docs.length % 2 === 0 ? '\n' : ' ');
      docs.push({ id: `nlp-${f}-${i}`, text, source: 'nlp-corpus', metadata: { url: `https://example.com/nlp-corpus/${f}/${i}` } });
      size += text.length;
    }
  }
  return docs;
}

export interface ProseCorpus {
  file: string;
  docs: number;
  bytes: number;
  sources: Record<string, number>;
}

/** Builds the corpus once (cached under `dir`): one gzip JSON-lines file, sources interleaved. */
export function ensureProseCorpus(dir: string): ProseCorpus {
  const marker = join(dir, 'prose.json');
  if (existsSync(marker)) return JSON.parse(readFileSync(marker, 'utf8')) as ProseCorpus;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  process.stderr.write('building the real-prose corpus (man pages, /usr/share/doc, Python docstrings, nlp-corpus) …\n');
  const groups = [manPages(), usrShareDoc(), pythonDocstrings(), nlpCorpus()];
  const all: Doc[] = [];
  for (let i = 0; groups.some((g) => i < g.length); i++) for (const g of groups) if (i < g.length) all.push(g[i] as Doc);
  const sources: Record<string, number> = {};
  let bytes = 0;
  for (const d of all) {
    const b = Buffer.byteLength(d.text);
    sources[d.source] = (sources[d.source] ?? 0) + b;
    bytes += b;
  }
  if (all.length === 0) throw new Error('no prose found: install man-db and manpages (apt), python3, or nlp-corpus (npm)');
  // Under documents/, so the attribute files land beside it in attributes/<set>/.
  mkdirSync(join(dir, 'documents'));
  const file = join(dir, 'documents', 'prose.jsonl.gz');
  writeFileSync(file, gzipSync(all.map((d) => JSON.stringify(d)).join('\n') + '\n', { level: 1 }));
  const info: ProseCorpus = { file, docs: all.length, bytes, sources };
  writeFileSync(marker, JSON.stringify(info));
  return info;
}
