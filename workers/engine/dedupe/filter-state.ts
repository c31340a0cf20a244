// Opening the configured bloom filter and deciding, from its manifest, which inputs it already holds.
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import type { DedupeConfig } from '../../../shared/dedupe/schema.js';
import { AssayError } from '../errors.js';
import { BloomFilter, geometryFor, loadFilter, type BloomManifest, type ManifestEntry } from './bloom/index.js';

export interface OpenedFilter {
  filter: BloomFilter;
  manifest: BloomManifest;
  created: boolean;
  /** sha256 of the filter file as loaded; null for a new filter. */
  sha256: string | null;
}

/** Loads `bloom_filter.file` if it exists (verifying it matches the configured size), else creates one. */
export async function openFilter(cfg: DedupeConfig['bloom_filter'], path: string): Promise<OpenedFilter> {
  const exists = await stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
  const sized = cfg.estimated_doc_count > 0;
  if (!exists) {
    if (cfg.read_only) throw new AssayError('CONFIG', 'bloom_filter.read_only is set but the filter file does not exist (a read-only filter is only checked, never built)', { file: path, field: 'bloom_filter.file' });
    const geometry = geometryFor({ sizeInBytes: cfg.size_in_bytes, estimatedDocCount: cfg.estimated_doc_count, falsePositiveRate: cfg.desired_false_positive_rate });
    return { filter: await BloomFilter.create(geometry), manifest: { files: [] }, created: true, sha256: null };
  }
  const loaded = await loadFilter(path);
  if (sized) {
    const want = geometryFor({ sizeInBytes: cfg.size_in_bytes, estimatedDocCount: cfg.estimated_doc_count, falsePositiveRate: cfg.desired_false_positive_rate });
    const f = loaded.filter;
    if (f.k !== want.k || f.m !== want.m) {
      throw new AssayError(
        'MISMATCH',
        `bloom filter file has k=${f.k}, m=${f.m} bits but this config asks for k=${want.k}, m=${want.m} bits; ` +
          'it was built with other bloom_filter settings — use the same settings, point bloom_filter.file elsewhere, or delete the file',
        { file: path, field: 'bloom_filter' },
      );
    }
  }
  return { ...loaded, created: false };
}

/** Everything that changes which keys a file puts in the filter, or what its output holds. */
export function settingsFingerprint(cfg: DedupeConfig, attribute: string): string {
  const d = cfg.dedupe;
  const json = JSON.stringify({ v: 1, attribute, documents: d.documents ?? null, paragraphs: d.paragraphs ?? null, skip_empty: d.skip_empty, min_length: d.min_length, min_words: d.min_words, partitions: [d.num_partitions, d.partition_index] });
  return createHash('sha256').update(json).digest('hex').slice(0, 16);
}

/**
 * Whether an input's keys are already in the filter, and if so whether its output from that run is
 * intact (then the file is skipped: its attributes are the first run's). Reprocessing such a file
 * would mark every one of its keys duplicate (Dolma's rerun trap, spec §4.7), so any other state —
 * changed input, missing or altered output, other settings — is an error, not a silent recompute.
 */
export async function heldBy(manifest: BloomManifest, input: string, output: string, fingerprint: string, filterPath: string): Promise<ManifestEntry | null> {
  const entry = manifest.files.find((e) => e.input === input);
  if (!entry) return null;
  const fail = (why: string): never => {
    throw new AssayError(
      'MISMATCH',
      `the bloom filter already holds the keys of ${input}, but ${why}; deduping it again would mark all of it duplicate. ` +
        'Restore that state, or delete the filter file to start over',
      { file: filterPath },
    );
  };
  if (entry.fingerprint !== fingerprint || entry.output !== output) fail('it was deduped with other dedupe settings');
  const inStat = await stat(input);
  if (inStat.size !== entry.size || inStat.mtimeMs !== entry.mtimeMs) fail('the file changed since (size or modification time)');
  const outStat = await stat(output).catch(() => null);
  if (!outStat) fail(`its attributes file ${output} is gone`);
  else if (outStat.size !== entry.outputSize) fail(`its attributes file ${output} changed since`);
  return entry;
}
