import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../testing.js';
import { histogramKey, StatsCollector } from './group.js';
import { mergeStatsFiles, mergeStatsFolders } from './merge.js';
import { pyFloat, pyInt, type StatsDocument } from './types.js';

// Expected bytes come from a Python transcription of DataTrove's MetricStats / BaseStats / StatsMerger
// (spec §14.1, §14.3) run on the same documents.
const DOCS: StatsDocument[] = [
  { text: '1.5', metadata: { url: 'test1.co.uk' } },
  { text: '2', metadata: { url: 'test1.co.uk', token_count: 3 } },
  { text: '1', metadata: { url: 'test2.cz' } },
  { text: '1', metadata: { url: 'test3.cz' } },
];
const extract = (d: StatsDocument) =>
  new Map([
    ['stat', pyFloat(Number(d.text))],
    ['n', pyInt(d.text.length * 2)],
  ]);
const F = (v: string) => `{"total": ${v}, "unit": "task"}`;
const SPREAD_STAT = '"n": 2, "mean": 1.75, "variance": 0.125, "std_dev": 0.3535533905932738, "min": 1.5, "max": 2.0, "unit": "task"}';
const SPREAD_N = '"n": 2, "mean": 4.0, "variance": 8.0, "std_dev": 2.8284271247461903, "min": 2, "max": 6, "unit": "task"}';

describe('StatsCollector', () => {
  it('writes every group/stat file in DataTrove order with DataTrove bytes', () => {
    const c = new StatsCollector({ histogramRoundDigits: 2, topK: { topKGroups: ['fqdn', 'suffix'], topK: 2 } });
    for (const d of DOCS) c.add(d, extract(d));
    expect(c.files(0).map((f) => [f.path, f.json])).toEqual([
      ['summary/stat/00000.json', '{"summary": {"total": 5.5, "n": 4, "mean": 1.375, "variance": 0.22916666666666666, "std_dev": 0.47871355387816905, "min": 1.0, "max": 2.0, "unit": "task"}}'],
      ['summary/n/00000.json', '{"summary": {"total": 12, "n": 4, "mean": 3.0, "variance": 4.0, "std_dev": 2.0, "min": 2, "max": 6, "unit": "task"}}'],
      ['histogram/stat/00000.json', `{"1.5": ${F('1')}, "2.0": ${F('1')}, "1.0": ${F('2')}}`],
      ['histogram/stat__chars/00000.json', `{"1.5": {"total": 3, "mean": 3.0, "unit": "task"}, "2.0": ${F('1')}, "1.0": ${F('2')}}`],
      ['histogram/n/00000.json', `{"6": ${F('1')}, "2": ${F('3')}}`],
      ['histogram/n__chars/00000.json', `{"6": {"total": 3, "mean": 3.0, "unit": "task"}, "2": ${F('3')}}`],
      ['histogram/stat__tokens/00000.json', '{"2.0": {"total": 3, "mean": 3.0, "unit": "task"}}'],
      ['histogram/n__tokens/00000.json', '{"2": {"total": 3, "mean": 3.0, "unit": "task"}}'],
      ['fqdn/stat/00000.json', `{"test1.co.uk": {"total": 3.5, ${SPREAD_STAT}, "test2.cz": ${F('1.0')}}`],
      ['fqdn/n/00000.json', `{"test1.co.uk": {"total": 8, ${SPREAD_N}, "test2.cz": {"total": 2, "mean": 2.0, "unit": "task"}}`],
      ['suffix/stat/00000.json', `{"co.uk": {"total": 3.5, ${SPREAD_STAT}, "cz": ${F('2.0')}}`],
      ['suffix/n/00000.json', `{"co.uk": {"total": 8, ${SPREAD_N}, "cz": {"total": 4, "n": 2, "mean": 2.0, "unit": "task"}}`],
    ]);
  });

  it('histogram keys are str(round(v, digits)) of the Python type', () => {
    expect(histogramKey(pyFloat(0.1875), 3)).toBe('0.188');
    expect(histogramKey(pyFloat(2.5), 0)).toBe('2.0');
    expect(histogramKey(pyFloat(1e-7), 3)).toBe('0.0');
    expect(histogramKey(pyInt(4), 3)).toBe('4');
    expect(histogramKey(pyInt(1234), -2)).toBe('1200');
  });

  it('needs metadata.url for the domain groups, unless fqdn/suffix are given', () => {
    const c = new StatsCollector({ groups: ['fqdn'] });
    expect(() => c.add({ id: 'x', text: 'a', metadata: {} }, extract(DOCS[0] as StatsDocument))).toThrow(/metadata\.url/);
    c.add({ text: 'a', metadata: { fqdn: 'given.org' } }, extract(DOCS[0] as StatsDocument));
    expect(c.files(3)[0]?.path).toBe('fqdn/stat/00003.json');
    expect(c.files(3)[0]?.json).toContain('"given.org"');
  });
});

describe('StatsMerger', () => {
  const plainDocs = DOCS.map((d) => ({ text: d.text, metadata: { url: d.metadata.url } }));
  const rankFiles = (): Map<string, string> => {
    const files = new Map<string, string>();
    for (const [rank, part] of [plainDocs.slice(0, 2), plainDocs.slice(2)].entries()) {
      const c = new StatsCollector({ histogramRoundDigits: 2 });
      for (const d of part) c.add(d, new Map([['stat', pyFloat(Number(d.text))]]));
      for (const f of c.files(rank)) files.set(f.path, f.json);
    }
    return files;
  };
  const EXPECTED = new Map([
    ['fqdn/stat/metric.json', `{"test1.co.uk": {"total": 3.5, ${SPREAD_STAT}}`],
    ['histogram/stat/metric.json', `{"1.5": ${F('1')}, "2.0": ${F('1')}, "1.0": ${F('2')}}`],
    ['histogram/stat__chars/metric.json', `{"1.5": {"total": 3, "mean": 3.0, "unit": "task"}, "2.0": ${F('1')}, "1.0": ${F('2')}}`],
    ['suffix/stat/metric.json', `{"co.uk": {"total": 3.5, ${SPREAD_STAT}, "cz": ${F('2.0')}}`],
    // n becomes 4.0 and min 1: rank 1's compact {"total": 2.0} reads back as n=total (float), min=mean=1 (int)
    ['summary/stat/metric.json', '{"summary": {"total": 5.5, "n": 4.0, "mean": 1.375, "variance": 0.22916666666666666, "std_dev": 0.47871355387816905, "min": 1, "max": 2.0, "unit": "task"}}'],
  ]);
  const topK = { topKGroups: ['fqdn'] as const, topK: 1 };

  it('sums rank files per leaf folder, re-applying top-k', () => {
    expect(mergeStatsFiles(rankFiles(), { topK })).toEqual(EXPECTED);
    const half = mergeStatsFiles(rankFiles(), { topK, rank: 1, worldSize: 2 });
    expect([...half.keys()]).toEqual(['histogram/stat/metric.json', 'suffix/stat/metric.json']); // sorted folders [1::2]
  });

  it('on disk: reads {group}/{stat}/NNNNN.json, writes metric.json, can remove inputs', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const rank = new StatsCollector({ histogramRoundDigits: 2 });
      for (const d of plainDocs.slice(0, 2)) rank.add(d, new Map([['stat', pyFloat(Number(d.text))]]));
      await rank.write(dir, 0);
      const other = new StatsCollector({ histogramRoundDigits: 2 });
      for (const d of plainDocs.slice(2)) other.add(d, new Map([['stat', pyFloat(Number(d.text))]]));
      await other.write(dir, 1);
      const written = await mergeStatsFolders(dir, dir, { topK, removeInput: true });
      expect(written.map((p) => p.slice(dir.length + 1)).sort()).toEqual([...EXPECTED.keys()].sort());
      for (const [p, json] of EXPECTED) expect(readFileSync(join(dir, p), 'utf8')).toBe(json);
      expect(() => readFileSync(join(dir, 'summary/stat/00000.json'))).toThrow();
    } finally {
      cleanup();
    }
  });
});
