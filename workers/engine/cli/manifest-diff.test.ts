// `assay manifest` and `assay diff` through main(argv): the chain as a tree and JSON, diffs of two runs, bad manifests.
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { manifestPathFor, type RunManifest } from '../manifest/schema.js';
import { cli, runChain, writeCorpus, writeRecipe } from '../manifest/test-chain.js';
import { scratchDir } from '../testing.js';

const manifestOf = (dir: string, folder: string): RunManifest => JSON.parse(readFileSync(manifestPathFor(join(dir, folder)), 'utf8')) as RunManifest;

describe('assay manifest', () => {
  it('prints the chain as a tree and, with --json, every manifest with its parents resolved; says when a parent changed or vanished', async () => {
    const dir = scratchDir();
    writeCorpus(dir);
    await runChain(dir);
    const tree = await cli('manifest', join(dir, 'tokens'));
    expect(tree.code, tree.stderr).toBe(0);
    const heads = tree.stdout.split('\n').filter((l) => /^\s*(← )?(tokens|mix|tag|minhash) {2}\//.test(l));
    expect(heads).toEqual([
      `tokens  ${manifestPathFor(join(dir, 'tokens'))}`,
      `  ← mix  ${manifestPathFor(join(dir, 'output'))}`,
      `      ← tag  ${manifestPathFor(join(dir, 'dataset/attributes/char_length_v1'))}`,
      `      ← minhash  ${manifestPathFor(join(dir, 'dataset/attributes/mh'))}`,
    ]);
    const tokens = manifestOf(dir, 'tokens');
    expect(tree.stdout).toContain(`config sha256 ${tokens.configSha256} · seeds seed=1`);
    expect(tree.stdout).toMatch(new RegExp(`part-0-00000\\.npy .* tokens {2}${tokens.totals.docs} docs {2}${tokens.totals.tokens!.count.toLocaleString('en-US')} tokens\\n`));
    // The mix's counts are estimates and say so.
    expect(tree.stdout).toMatch(/chain-0000\.json\.gz .* documents {2}\d+ docs {2}[\d,]+ est\. tokens/);
    expect(tree.stdout).toMatch(/inputs: 6 file\(s\) \(attributes\/char_length_v1 2, attributes\/mh 2, documents 2\); 2 raw .*; 4 made by the 2 run\(s\) below/);

    const json = JSON.parse((await cli('manifest', join(dir, 'tokens'), '--json')).stdout) as { stage: string; parents: { stage: string; status: string; manifest: { parents: { stage: string; manifest: RunManifest }[] } }[] };
    expect(json.stage).toBe('tokens');
    expect(json.parents.map((p) => [p.stage, p.status])).toEqual([['mix', 'same']]);
    expect(json.parents[0]!.manifest.parents.map((p) => p.manifest.stage)).toEqual(['tag', 'minhash']);
    expect(json.parents[0]!.manifest.parents[1]!.manifest).toMatchObject(manifestOf(dir, 'dataset/attributes/mh'));

    // The mix ran again with another recipe after the tokens were made: the link says the tokens came from an earlier mix.
    expect((await cli('mix', '-c', writeRecipe(dir, 'strict', 2000), '--quiet')).code).toBe(0);
    expect((await cli('manifest', join(dir, 'tokens'))).stdout).toMatch(/← mix {2}\S+ {2}\[CHANGED since/);
    rmSync(manifestPathFor(join(dir, 'dataset/attributes/mh')));
    const broken = await cli('manifest', join(dir, 'output'));
    expect(broken.code).toBe(1);
    expect(broken.stdout).toMatch(/← minhash {2}\S+ {2}\[MISSING\]/);
    expect(broken.stderr).toContain(`${manifestPathFor(join(dir, 'dataset/attributes/mh'))}: run manifest is missing`);
  });
});

describe('assay diff A B', () => {
  it('an identical rerun exits 0; a config change lists the key paths, the outputs and the documents and tokens per source that moved (exit 1)', async () => {
    const dir = scratchDir();
    writeCorpus(dir);
    await runChain(dir);
    const a = join(dir, 'mix-a.json');
    copyFileSync(manifestPathFor(join(dir, 'output')), a);
    expect((await cli('mix', '-c', join(dir, 'recipe-output.yaml'), '--quiet')).code).toBe(0);
    const same = await cli('diff', a, join(dir, 'output'));
    expect(same, same.stderr).toMatchObject({ code: 0, stdout: expect.stringMatching(/identical apart from times\n$/) });

    expect((await cli('mix', '-c', writeRecipe(dir, 'strict', 2000, 'output-b'), '--quiet')).code).toBe(0);
    const d = await cli('diff', join(dir, 'output'), join(dir, 'output-b'));
    expect(d.code, d.stderr).toBe(1);
    expect(d.stdout).toContain('config: 2 change(s)');
    expect(d.stdout).toContain(`streams[0].output.path: ${JSON.stringify(join(dir, 'output'))} → ${JSON.stringify(join(dir, 'output-b'))}`);
    expect(d.stdout).toMatch(/streams\[0\]\.filter\.exclude\[1\]: ".*< 100\)\]" → ".*< 2000\)\]"/);
    expect(d.stdout).toMatch(/outputs: 0 added, 0 removed, 1 changed\n {4}~ chain-0000\.json\.gz \(documents\) sha256 \w{12}… → \w{12}…, \d+ docs → \d+/);
    expect(d.stdout).not.toMatch(/^inputs:/m);

    const before = manifestOf(dir, 'output').totals.bySource!;
    const after = manifestOf(dir, 'output-b').totals.bySource!;
    const json = JSON.parse((await cli('diff', join(dir, 'output'), join(dir, 'output-b'), '--json')).stdout) as { identical: boolean; bySource: { source: string; docs: { old: number; new: number } }[] };
    expect(json.identical).toBe(false);
    const moved = Object.keys(before).filter((s) => before[s]!.docs !== after[s]?.docs);
    expect(moved.length).toBeGreaterThan(0);
    expect(json.bySource.map((m) => [m.source, m.docs.old, m.docs.new])).toEqual(moved.map((s) => [s, before[s]!.docs, after[s]?.docs ?? 0]));
    for (const s of moved) expect(d.stdout).toMatch(new RegExp(`^ {4}${s} +docs ${before[s]!.docs} → ${after[s]?.docs ?? 0} \\(−${before[s]!.docs - (after[s]?.docs ?? 0)}\\)   est\\. tokens`, 'm'));
  });
});

describe('assay diff -c OLD -c NEW --index ROOT', () => {
  it('two -c go to the recipe diff over the index (exit 1 when documents change fate, 0 when none do)', async () => {
    const dir = scratchDir();
    writeCorpus(dir);
    await runChain(dir);
    expect((await cli('index', join(dir, 'dataset'), '--no-search', '--quiet')).code).toBe(0);
    const [loose, strict] = [writeRecipe(dir, 'loose', 100), writeRecipe(dir, 'strict', 2000)];
    const d = await cli('diff', '-c', loose, '-c', strict, '--index', join(dir, 'dataset'));
    expect(d.code, d.stderr).toBe(1);
    expect(d.stdout).toMatch(/→ .*strict\.yaml: 47 of 50 documents change fate/);
    expect(await cli('diff', '-c', loose, '-c', loose, '--index', join(dir, 'dataset'))).toMatchObject({ code: 0, stdout: expect.stringMatching(/: 0 of 50 documents change fate/) });
  });
});

describe('bad manifests and bad arguments', () => {
  it('missing, truncated, another schema or another version: a message naming the file, no stack trace (manifest: exit 1, diff: exit 2)', async () => {
    const dir = scratchDir();
    writeCorpus(dir);
    await runChain(dir);
    const good = readFileSync(manifestPathFor(join(dir, 'tokens')), 'utf8');
    const put = (name: string, text: string): string => {
      const file = join(dir, name, '.assay/manifest.json');
      mkdirSync(join(dir, name, '.assay'), { recursive: true });
      writeFileSync(file, text);
      return file;
    };
    const cases: [string, string, RegExp][] = [
      [join(dir, 'nowhere'), join(dir, 'nowhere'), /no such file or folder/],
      [join(dir, 'dataset'), join(dir, 'dataset'), /no run manifest in this folder/],
      [join(dir, 'cut'), put('cut', good.slice(0, good.length / 2)), /truncated run manifest/],
      [join(dir, 'other'), put('other', JSON.stringify({ schema: 'datatrove.stats', version: 1 })), /another schema: "datatrove\.stats", not "assay\.run-manifest"/],
      [join(dir, 'v2'), put('v2', good.replace('"version": 1', '"version": 2')), /assay\.run-manifest version 2; this Assay reads version 1/],
    ];
    for (const [arg, named, why] of cases) {
      const m = await cli('manifest', arg);
      expect(m.code, arg).toBe(1);
      expect(m.stderr).toMatch(new RegExp(`^assay: error: ${named.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: ${why.source}`));
      expect(m.stderr).not.toMatch(/\n\s+at /);
      const d = await cli('diff', join(dir, 'tokens'), arg);
      expect(d.code, arg).toBe(2);
      expect(d.stderr).toContain(named);
      expect(d.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('diff takes two paths or two -c; -c twice elsewhere is a usage error; Dolma\'s `assay -c CONFIG VERB` order still works', async () => {
    for (const argv of [['diff', 'a'], ['diff', 'a', 'b', 'c'], ['diff', '-c', 'x.yaml', 'a', 'b'], ['diff', '-c', 'x.yaml', '--index', 'r'], ['diff', 'a', 'b', '--index', 'r']]) {
      const r = await cli(...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/diff compares two run manifests \(assay diff A B\) or two recipes over an index/);
    }
    const twice = await cli('mix', '-c', 'a.yaml', '-c', 'b.yaml');
    expect(twice).toMatchObject({ code: 2, stderr: expect.stringMatching(/--config was given 2 times \(a\.yaml, b\.yaml\); mix takes one/) });
    const dolma = await cli('-c', '/no/such/config.yaml', 'mix');
    expect(dolma.code).toBe(2);
    expect(dolma.stderr).toContain('/no/such/config.yaml');
    expect(dolma.stderr).not.toMatch(/unknown command|takes one/);
  });
});
