// Acceptance (issue 13): a tag → minhash → mix → tokens chain leaves manifests that link the tokens back to every input file.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJsonlFile, scratchDir, writeJsonl } from '../testing.js';
import { chainNodes, loadChain } from './chain.js';
import { resolveManifest } from './read.js';
import { manifestPathFor, type RunManifest } from './schema.js';
import { runChain, sha256Of, writeCorpus } from './test-chain.js';

/** Every manifest of the chain behind `tokens/`, root first. */
async function chainOf(dir: string): Promise<RunManifest[]> {
  return chainNodes(await loadChain(await resolveManifest(join(dir, 'tokens')))).map((n) => n.manifest);
}

const FOLDERS = ['tokens', 'output', 'dataset/attributes/char_length_v1', 'dataset/attributes/mh'];
const read = (dir: string): Record<string, RunManifest> =>
  Object.fromEntries(FOLDERS.map((f) => [f, JSON.parse(readFileSync(manifestPathFor(join(dir, f)), 'utf8')) as RunManifest]));

/**
 * A manifest minus what a rerun changes by the clock alone: the run's start, end and duration, input mtimes
 * (a rerun rewrites the upstream files), and the parents' file hashes (each parent file holds its own times).
 */
function withoutTimes(m: RunManifest): unknown {
  const { started: _s, ended: _e, elapsedSec: _x, ...run } = m.run;
  return { ...m, run, inputs: m.inputs.map(({ mtimeMs: _m, ...i }) => i), parents: m.parents.map(({ sha256: _h, ...p }) => p) };
}

/** The files the chain starts from: both documents files and each attribute file the mix read. */
const rawFiles = (dir: string): string[] =>
  ['documents', 'attributes/char_length_v1', 'attributes/mh'].flatMap((d) => ['part-0.jsonl.gz', 'part-1.jsonl.gz'].map((f) => join(dir, 'dataset', d, f)));

describe('run manifests along tag → minhash → mix → tokens', () => {
  it('the tokens manifest links back through mix to tag and minhash, to every input file with the sha256 of its bytes', async () => {
    const dir = scratchDir();
    writeCorpus(dir);
    await runChain(dir);
    const root = await loadChain(await resolveManifest(join(dir, 'tokens')));
    expect(chainNodes(root).map((n) => n.manifest.stage)).toEqual(['tokens', 'mix', 'tag', 'minhash']);
    // tokens read the mix's shard, whose manifest lists it with the same hash.
    const [mix] = root.parents;
    expect(mix?.status).toBe('same');
    for (const i of root.manifest.inputs.filter((i) => i.role === 'documents')) {
      expect(i.sha256).toBe(sha256Of(i.path));
      expect(root.manifest.parents[i.parent!]?.stage).toBe('mix');
      expect(mix?.node?.manifest.outputs.find((o) => join(dir, 'output', o.path) === i.path)?.sha256).toBe(i.sha256);
    }
    // The mix read every raw file; the attribute files link on to the runs that wrote them.
    const m = mix!.node!.manifest;
    for (const file of rawFiles(dir)) {
      const input = m.inputs.find((i) => i.path === file);
      expect(input?.sha256, file).toBe(sha256Of(file));
      if (file.includes('/documents/')) expect(input?.parent).toBeNull();
      else {
        const parent = mix!.node!.parents[input!.parent!]!;
        expect(parent.ref.stage).toBe(file.includes('/mh/') ? 'minhash' : 'tag');
        expect(parent.node?.manifest.outputs.find((o) => join(parent.node!.manifest.folder, o.path) === file)?.sha256).toBe(input?.sha256);
        // …and those runs read the same documents files, with the same hashes.
        const docs = parent.node!.manifest.inputs.map((i) => [i.path, i.sha256]);
        expect(docs).toEqual(rawFiles(dir).slice(0, 2).map((f) => [f, sha256Of(f)]));
      }
    }
    expect(m.totals.docs).toBe(root.manifest.totals.docs);
  });

  it('a rerun with the same inputs and seed writes the same manifests apart from times; a changed input file changes its hash', async () => {
    const dir = scratchDir();
    const [part0, part1] = writeCorpus(dir) as [string, string];
    await runChain(dir, { seed: 5 });
    const first = read(dir);
    await runChain(dir, { seed: 5 });
    const second = read(dir);
    for (const f of FOLDERS) {
      expect(second[f]!.run.started, `${f} was written again`).not.toBe(first[f]!.run.started);
      expect(withoutTimes(second[f]!), f).toEqual(withoutTimes(first[f]!));
    }

    const before = Object.fromEntries(rawFiles(dir).map((f) => [f, sha256Of(f)]));
    const docs = readJsonlFile(part1);
    docs[3] = { ...docs[3], text: `${String(docs[3]?.text)} One more sentence about the river.` };
    writeJsonl(part1, docs);
    await runChain(dir, { seed: 5 });
    const listed = new Map<string, Set<string>>();
    for (const m of await chainOf(dir)) for (const i of m.inputs) listed.set(i.path, (listed.get(i.path) ?? new Set()).add(i.sha256));
    for (const f of rawFiles(dir)) {
      expect([...listed.get(f)!], f).toEqual([sha256Of(f)]);
      // part-0 and its attribute rows are untouched; part-1's documents and its char_length row changed.
      if (f.endsWith('part-0.jsonl.gz')) expect(sha256Of(f)).toBe(before[f]);
    }
    expect(sha256Of(part1)).not.toBe(before[part1]);
    expect(listed.get(part0)).toEqual(new Set([before[part0]]));
    expect(sha256Of(join(dir, 'dataset/attributes/char_length_v1/part-1.jsonl.gz'))).not.toBe(before[join(dir, 'dataset/attributes/char_length_v1/part-1.jsonl.gz')]);
    expect(withoutTimes(read(dir).tokens!)).not.toEqual(withoutTimes(second.tokens!));
  });
});
