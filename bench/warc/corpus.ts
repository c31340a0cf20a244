// The bench's pages: Debian's installed HTML (or smoke fixtures), served on 127.0.0.1 and fetched into a WARC by `wget --warc-file`.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join, normalize } from 'node:path';
import { promisify } from 'node:util';
import { DATA_DIR, SMOKE } from '../args.js';
import { writeFixtures } from './fixtures.js';
import { CORPORA, type CorpusDef } from './truth.js';

export interface Corpus extends CorpusDef {
  /** Page paths relative to `root`, sorted. */
  files: string[];
}

/** Every HTML page of the corpus, outside Sphinx's `_static`/`_sources` trees; smoke mode writes and uses fixtures instead. */
export function resolveCorpora(): Corpus[] {
  return CORPORA.map((c, i) => {
    if (SMOKE) {
      const root = join(DATA_DIR, 'warc', 'pages', c.name);
      return { ...c, root, files: writeFixtures(root, i === 0 ? 'sphinx' : 'publican', 4) };
    }
    if (!existsSync(c.root)) throw new Error(`${c.root} is missing: install it with 'apt-get install -y ${c.apt}' (or run with ASSAY_BENCH_SMOKE=1)`);
    const files = (readdirSync(c.root, { recursive: true }) as string[]).filter((f) => f.endsWith('.html') && !f.startsWith('_')).sort();
    return { ...c, files };
  });
}

/** Serves `root` read-only on an ephemeral 127.0.0.1 port, as `python3 -m http.server` would. */
async function serve(root: string): Promise<{ base: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    const rel = normalize(decodeURIComponent((req.url ?? '/').split('?')[0] as string)).replace(/^(\.\.[/\\])+/, '');
    try {
      const body = readFileSync(join(root, rel));
      res.writeHead(200, { 'Content-Type': rel.endsWith('.html') ? 'text/html; charset=utf-8' : 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as { port: number }).port;
  return { base: `http://127.0.0.1:${port}/`, close: () => new Promise((ok) => server.close(() => ok())) };
}

export const hasWget = (): boolean => existsSync('/usr/bin/wget');

/** Fetches every page of the corpus with wget into `<dir>/<name>.warc.gz`; null when wget is not installed. */
export async function buildWarc(c: Corpus): Promise<string | null> {
  if (!hasWget()) return null;
  const dir = join(DATA_DIR, 'warc', 'warcs');
  mkdirSync(dir, { recursive: true });
  const site = await serve(c.root);
  try {
    const list = join(dir, `${c.name}.urls`);
    writeFileSync(list, c.files.map((f) => site.base + f.split('/').map(encodeURIComponent).join('/')).join('\n') + '\n');
    const fetched = join(dir, `${c.name}-files`);
    // wget runs asynchronously: the server answers from this same process.
    await promisify(execFile)('wget', ['-q', '-nd', '--delete-after', '-P', fetched, `--warc-file=${join(dir, c.name)}`, '-i', list], { maxBuffer: 1 << 24 });
    rmSync(fetched, { recursive: true, force: true });
    return join(dir, `${c.name}.warc.gz`);
  } finally {
    await site.close();
  }
}
