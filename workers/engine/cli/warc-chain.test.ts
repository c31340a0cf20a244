// `assay warc` from the CLI: FineWeb's whole chain on WARC-sourced documents (warc → tag → index → preview → mix → tokens), resume, bad inputs.
import { copyFileSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { readJsonlFile, REPO_ROOT, scratchDir } from '../testing.js';
import { httpBlock, perRecordGzip, warcRecord } from '../warc/testing.js';
import { ensureBuilt, runCli } from './run-cli.js';
import { finewebDocs } from './test-corpus.js';

beforeAll(() => ensureBuilt());

/** FineWeb's test documents as web pages (paragraphs as <p>, a menu and a footer around them), split over two WARC files. */
function writeCrawl(dir: string): { ids: string[]; files: string[] } {
  const docs = finewebDocs(12);
  const ids: string[] = [];
  const files = [0, 1].map((part) => {
    const records = docs
      .filter((_, i) => i % 2 === part)
      .map((d, i) => {
        const id = `00000000-0000-4000-8000-${String(part * 100 + i).padStart(12, '0')}`;
        ids.push(id);
        const html = `<html><head><title>${d.id}</title></head><body><nav><a href="/">Home</a> <a href="/about">About</a></nav><main>${d.text
          .split('\n')
          .map((p) => `<p>${p}</p>`)
          .join('')}</main><footer>Copyright 2024</footer></body></html>`;
        return warcRecord('response', d.metadata.url, httpBlock(200, { 'Content-Type': 'text/html; charset=utf-8' }, html), { id });
      });
    const file = join(dir, `crawl/CC-MAIN-2024-10-part-${part}.warc.gz`);
    mkdirSync(join(dir, 'crawl'), { recursive: true });
    writeFileSync(file, perRecordGzip([warcRecord('warcinfo', '', Buffer.from('software: test\r\n')), ...records]));
    return file;
  });
  return { ids, files };
}

describe('assay warc', () => {
  it("feeds FineWeb's chain end to end: warc → tag -c configs/fineweb.yaml → index → preview → mix → tokens", { timeout: 180_000 }, () => {
    const cwd = scratchDir();
    const { ids } = writeCrawl(cwd);
    mkdirSync(join(cwd, 'configs'));
    copyFileSync(join(REPO_ROOT, 'configs/fineweb.yaml'), join(cwd, 'configs/fineweb.yaml'));
    const run = (args: string[]): string => {
      const r = runCli(args, { cwd });
      expect(r.code, `assay ${args.join(' ')}: ${r.stderr}`).toBe(0);
      return r.stdout;
    };
    const summary = run(['warc', '--documents', 'crawl/*.warc.gz', '--destination', 'dataset', '--processes', '2']);
    expect(summary).toMatch(/warc: 2 file\(s\) with 2 process\(es\) .*: 21 records read, 19 kept; 2 not pages/);
    const docs = ['part-0', 'part-1'].flatMap((p) => readJsonlFile(join(cwd, `dataset/documents/CC-MAIN-2024-10-${p}.jsonl.gz`)));
    expect(docs.map((d) => d.id).sort()).toEqual([...ids].sort());
    for (const d of docs) {
      expect(Object.keys(d)).toEqual(['id', 'text', 'source', 'added', 'created', 'metadata']);
      expect(d.metadata).toMatchObject({ dump: 'CC-MAIN-2024-10', content_type: 'text/html', charset: 'utf-8', language: null });
      expect(String(d.text)).not.toMatch(/Home|Copyright/);
    }

    run(['tag', '-c', 'configs/fineweb.yaml', '--quiet']);
    // The run manifests chain: the tag run's parent is the warc run, which lists both WARC files with their hashes.
    const chain = run(['manifest', 'dataset/attributes/fineweb']);
    expect(chain).toMatch(/← warc {2}\S*dataset\/documents\/\.assay\/manifest\.json/);
    expect(chain).toMatch(/outputs: 2 file\(s\) · 19 docs/);
    expect(chain).toMatch(/inputs: 2 file\(s\) \(warc 2\)/);
    run(['index', 'dataset', '--quiet']);
    const preview = JSON.parse(run(['preview', '-c', 'configs/fineweb.yaml', '--index', 'dataset', '--json', '--ids'])) as { total: { docs: number }; kept_ids: string[] };
    expect(preview.total.docs).toBe(19);
    run(['mix', '-c', 'configs/fineweb.yaml', '--quiet']);
    const out = join(cwd, 'output/fineweb');
    const mixed = readdirSync(out)
      .filter((f) => f.endsWith('.gz'))
      .flatMap((f) => readJsonlFile(join(out, f)).map((d) => String(d.id)))
      .sort();
    expect(mixed.length).toBeGreaterThan(0);
    expect(mixed.length).toBeLessThan(19);
    expect([...preview.kept_ids].sort()).toEqual(mixed);
    run(['tokens', '--documents', 'output/fineweb/*.gz', '--destination', 'tokens', '--tokenizer.name_or_path', 'gpt2', '--tokenizer.eos_token_id', '50256', '--quiet']);
    const npy = readdirSync(join(cwd, 'tokens')).filter((f) => f.endsWith('.npy'));
    expect(npy.length).toBeGreaterThan(0);
    expect(statSync(join(cwd, 'tokens', npy[0] as string)).size).toBeGreaterThan(100);
  });

  it('resumes: a rerun skips finished files by marker, a changed file is redone; -c config (with its own url_filter and source_name) gives the same documents less the blocked one', { timeout: 120_000 }, () => {
    const cwd = scratchDir();
    const { files } = writeCrawl(cwd);
    const args = ['warc', '--documents', 'crawl/*.warc.gz', '--destination', 'dataset', '--min_text_length', '200'];
    const first = runCli(args, { cwd });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/too short/);
    const out0 = join(cwd, 'dataset/documents/CC-MAIN-2024-10-part-0.jsonl.gz');
    const mtime0 = statSync(out0).mtimeMs;
    const again = runCli(args, { cwd });
    expect(again.stdout.match(/already done/g)?.length).toBe(2);
    expect(statSync(out0).mtimeMs).toBe(mtime0);
    utimesSync(files[1] as string, new Date(), new Date(Date.now() + 5000));
    const third = runCli(args, { cwd });
    expect(third.stdout.match(/already done/g)?.length).toBe(1);
    expect(third.stdout).toMatch(/part-1\.warc\.gz: \d+ records read/);
    writeFileSync(join(cwd, 'warc.yaml'), 'documents: [crawl/*.warc.gz]\ndestination: [cfg]\nmin_text_length: 200\nsource_name: cc\nurl_filter: {extra_domains: [example.fr]}\n');
    const cfg = runCli(['-c', 'warc.yaml', 'warc', '-q'], { cwd });
    expect(cfg.code, cfg.stderr).toBe(0);
    const a = readJsonlFile(out0);
    const b = readJsonlFile(join(cwd, 'cfg/documents/CC-MAIN-2024-10-part-0.jsonl.gz'));
    // The config's url_filter blocks example.fr: the French page, kept by the flag run, is the only difference.
    const blocked = a.filter((d) => (d.metadata as { url: string }).url.startsWith('https://example.fr/')).map((d) => d.id);
    expect(blocked).toHaveLength(1);
    expect(b.map((d) => d.id)).toEqual(a.map((d) => d.id).filter((id) => !blocked.includes(id)));
    expect(b.every((d) => d.source === 'cc')).toBe(true);
    expect(cfg.stdout).toBe('');
  });

  it('bad inputs: no match, unknown extractor, missing destination, bad config key → exit 2 naming the problem; a truncated WARC → exit 0 with the skip named', { timeout: 60_000 }, () => {
    const cwd = scratchDir();
    const noMatch = runCli(['warc', '--documents', 'nothing/*.warc.gz', '--destination', 'd'], { cwd });
    expect(noMatch.code).toBe(2);
    expect(noMatch.stderr).toMatch(/no WARC files match 'nothing\/\*\.warc\.gz'/);
    writeCrawl(cwd);
    const extractor = runCli(['warc', '--documents', 'crawl/*.warc.gz', '--destination', 'd', '--extractor', 'nope'], { cwd });
    expect(extractor.code).toBe(2);
    expect(extractor.stderr).toMatch(/extractor: unknown extractor 'nope' \(known: .*density/);
    const noDest = runCli(['warc', '--documents', 'crawl/*.warc.gz'], { cwd });
    expect(noDest.code).toBe(2);
    expect(noDest.stderr).toMatch(/warc needs --destination DIR/);
    writeFileSync(join(cwd, 'bad.yaml'), 'documents: [crawl/*.warc.gz]\ndestination: d\nlinearizer: resiliparse\n');
    const badCfg = runCli(['warc', '-c', 'bad.yaml'], { cwd });
    expect(badCfg.code).toBe(2);
    expect(badCfg.stderr).toMatch(/bad\.yaml: .*linearizer/);
    const page = warcRecord('response', 'https://example.com/x', httpBlock(200, { 'Content-Type': 'text/html' }, `<p>${'A sentence about the river. '.repeat(20)}</p>`));
    const last = gzipSync(page);
    mkdirSync(join(cwd, 'cut'));
    writeFileSync(join(cwd, 'cut/cut.warc.gz'), Buffer.concat([gzipSync(page), last.subarray(0, 40)]));
    const cut = runCli(['warc', '--documents', 'cut/*.warc.gz', '--destination', 'd'], { cwd });
    expect(cut.code, cut.stderr).toBe(0);
    expect(cut.stdout).toMatch(/1 records read, 1 kept; 1 truncated input/);
    // The cut member's compressed offset (where Common Crawl's index would point), and the record's decompressed one.
    expect(cut.stderr).toContain(`cut/cut.warc.gz: byte ${gzipSync(page).length} (gzip member; ${page.length} decompressed): truncated input`);
  });
});
