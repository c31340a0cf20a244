// Pass-1 results kept per input file, so a crashed or cancelled MinHash run resumes without re-signing finished files.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MinhashConfig } from '../../../../shared/dedupe/minhash-schema.js';
import { AssayError } from '../../errors.js';
import { readRecords, RecordFiles } from './spill.js';
import type { SignCounts } from './sign-pass.js';

/** What a finished file's cache entry records; a missing or unreadable `done.json` means "not finished". */
export interface Done extends SignCounts {
  input: string;
  buckets: number[];
}

/**
 * `<work_root>/.minhash-resume/<config key>/<file key>/`: one folder per signed input file holding its bucket
 * records (document indices local to the file) and its id lines. The file key covers path, size and mtime, the
 * config key every setting that changes a signature, so an edited file or config is re-signed, never reused.
 * A folder appears under its final name only once complete (written as `<key>.tmp`, then renamed), which is
 * DataTrove's `skip_existing_sigs` made safe against half-written signature files.
 */
export class SignatureCache {
  readonly dir: string;

  constructor(workRoot: string, cfg: MinhashConfig) {
    const { n_grams, num_buckets, hashes_per_bucket, seed, hash_fc, precision, profile } = cfg;
    const key = digest(JSON.stringify({ v: 1, n_grams, num_buckets, hashes_per_bucket, seed, hash_fc, precision, profile }));
    this.dir = join(workRoot, '.minhash-resume', key);
  }

  entry(input: string): string {
    const st = statSync(input);
    return join(this.dir, digest(`${input}\0${st.size}\0${st.mtimeMs}`));
  }

  /**
   * The counts of a finished entry, or undefined when the file must be signed: an entry without the file's hash,
   * or whose bucket files are not all there at the sizes `done.json` records (a folder being deleted, or edited by hand).
   */
  finished(entry: string): Done | undefined {
    try {
      const done = JSON.parse(readFileSync(join(entry, 'done.json'), 'utf8')) as Done;
      if (typeof done.sha256 !== 'string' || done.sha256.length !== 64 || !Array.isArray(done.buckets) || !existsSync(join(entry, 'ids.tsv'))) return undefined;
      const complete = bucketPaths(entry, done.buckets.length).every((p, b) => statSync(p).size === RECORD_BYTES * (done.buckets[b] as number));
      return complete ? done : undefined;
    } catch {
      return undefined;
    }
  }

  /** A fresh temporary folder for signing one file; `commit` publishes it under the entry's name. */
  begin(entry: string, numBuckets: number): { tmp: string; buckets: RecordFiles; idPath: string } {
    const tmp = `${entry}.tmp`;
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(tmp, { recursive: true });
    return { tmp, buckets: new RecordFiles(bucketPaths(tmp, numBuckets)), idPath: join(tmp, 'ids.tsv') };
  }

  commit(entry: string, tmp: string, done: Done): void {
    writeFileSync(join(tmp, 'done.json'), JSON.stringify(done));
    rmSync(entry, { recursive: true, force: true });
    renameSync(tmp, entry);
  }

  /**
   * After a successful run nothing is left to resume. The cache is first moved into `trash` (the run's own spill
   * folder, which a later run removes if this one is killed), so a kill while deleting never leaves entries with
   * some of their files gone under the names a rerun would reuse.
   */
  clear(trash?: string): void {
    const root = join(this.dir, '..');
    if (trash !== undefined && existsSync(root)) {
      const moved = join(trash, 'minhash-resume.old');
      renameSync(root, moved);
      rmSync(moved, { recursive: true, force: true });
    } else rmSync(root, { recursive: true, force: true });
  }

  dropTemporaries(): void {
    if (!existsSync(this.dir)) return;
    for (const name of readdirSync(this.dir)) if (name.endsWith('.tmp')) rmSync(join(this.dir, name), { recursive: true, force: true });
  }

  /** On failure: finished entries stay for the rerun; with none, no trace of the run is left. */
  keepFinishedOnly(): void {
    this.dropTemporaries();
    if (!existsSync(this.dir) || readdirSync(this.dir).length === 0) this.clear();
  }
}

export function bucketPaths(dir: string, numBuckets: number): string[] {
  return Array.from({ length: numBuckets }, (_, b) => join(dir, `bucket_${String(b).padStart(3, '0')}.bin`));
}

/** Appends every entry's records of bucket `b` to `out`, shifting local document indices by each file's offset. */
export function mergeBucket(entries: readonly { dir: string; firstDoc: number; done: Done }[], b: number, out: RecordFiles, slot: number): void {
  for (const e of entries) {
    const path = bucketPaths(e.dir, e.done.buckets.length)[b] as string;
    let seen = 0;
    for (const chunk of readRecords(path)) {
      for (let j = 0; j < chunk.length; j += 3) out.add(slot, chunk[j] as number, chunk[j + 1] as number, (chunk[j + 2] as number) + e.firstDoc);
      seen += chunk.length / 3;
    }
    if (seen !== e.done.buckets[b]) throw new AssayError('IO', `MinHash resume file has ${seen} records, expected ${e.done.buckets[b]}; delete ${e.dir} to re-sign`, { file: path });
  }
}

/** A bucket record: band hash (two uint32) and document index. */
const RECORD_BYTES = 12;

const digest = (s: string): string => createHash('sha1').update(s).digest('hex').slice(0, 16);
