// One WARC file → one Dolma documents file: read records, turn pages into documents, write `.tmp` then rename.
import { AssayError } from '../errors.js';
import { AtomicWriter } from '../io/index.js';
import { openDecoded, type DecodedSource } from '../io/source.js';
import { estimateTokens, sha256File } from '../manifest/write.js';
import { loadUrlLists, type UrlLists } from '../tag/taggers/datatrove/url-filter.js';
import { DEFAULT_LID_MODEL, loadFastTextModel, type FastTextModel } from '../tag/taggers/fasttext/index.js';
import { resolve } from 'node:path';
import { ByteReader } from './bytes.js';
import { pageFromRecord, type PageContext } from './page.js';
import { readWarcRecords } from './records.js';
import { emptyCounts, type WarcFileOptions, type WarcFileResult, type WarcProgressDelta, type WarcTask } from './types.js';

export interface WarcFileHooks {
  signal?: AbortSignal;
  onProgress?: (delta: WarcProgressDelta) => void;
  log?: (message: string) => void;
}

/** At most this many problem lines per file are logged; all are counted. */
const MAX_LOGGED = 20;
const PROGRESS_EVERY = 64;

// Lists and the LID model are loaded once per process, not once per file.
const urlListCache = new Map<string, Promise<UrlLists>>();
const lidCache = new Map<string, Promise<FastTextModel>>();

function setup(options: WarcFileOptions): Promise<[UrlLists | null, FastTextModel | null]> {
  const f = options.urlFilter;
  let lists: Promise<UrlLists> | null = null;
  if (f !== null) {
    const key = JSON.stringify([f, options.cwd]);
    lists = urlListCache.get(key) ?? loadUrlLists(f, options.cwd);
    urlListCache.set(key, lists);
  }
  let lid: Promise<FastTextModel> | null = null;
  if (options.language !== null) {
    const path = options.language.modelPath === undefined ? DEFAULT_LID_MODEL : resolve(options.cwd, options.language.modelPath);
    lid = lidCache.get(path) ?? loadFastTextModel(path);
    lidCache.set(path, lid);
  }
  return Promise.all([lists, lid]);
}

/**
 * Where a record starts, as a reader finds it again: in a gzip file the offset of its member (Common Crawl's index
 * gives that offset: one record a member) and the decompressed offset; in a plain file its byte; in zstd the
 * decompressed offset.
 */
function placeOf(source: DecodedSource, offset: number): string {
  if (source.memberAt) return `byte ${source.memberAt(offset)} (gzip member; ${offset} decompressed)`;
  return source.codec === 'plain' ? `byte ${offset}` : `byte ${offset} (decompressed)`;
}

/** `CC-MAIN-2024-10` from a Common Crawl path, FineWeb's `dump`. */
export const dumpFromPath = (path: string): string | null => /CC-MAIN-\d{4}-\d{2}/.exec(path)?.[0] ?? null;

export async function processWarcFile(task: WarcTask, options: WarcFileOptions, hooks: WarcFileHooks = {}): Promise<WarcFileResult> {
  const [urlLists, lid] = await setup(options);
  const counts = emptyCounts();
  let logged = 0;
  const source = await openDecoded(task.input, undefined, { hash: true, members: true });
  const log = (offset: number, message: string): void => {
    if (logged++ < MAX_LOGGED) hooks.log?.(`${task.input}: ${placeOf(source, offset)}: ${message}`);
  };
  const ctx: PageContext = { options, urlLists, lid, dump: options.dump ?? dumpFromPath(task.input), rel: task.rel, log };
  // Listening starts at once: an error the decoder hits while the writer opens must not go unseen.
  const reader = source.stream === null ? null : new ByteReader(source.stream);
  const writer = await AtomicWriter.open(task.output, { mkdir: true }).catch((e: unknown) => {
    source.destroy();
    throw e;
  });
  let tokens = 0;
  let lastCompressed = 0;
  let lastBytes = 0;
  let lastRecords = 0;
  const progress = (): void => {
    const c = source.compressedBytes();
    const b = reader?.offset ?? 0;
    hooks.onProgress?.({ compressedBytes: c - lastCompressed, bytes: b - lastBytes, docs: counts.records - lastRecords });
    [lastCompressed, lastBytes, lastRecords] = [c, b, counts.records];
  };
  try {
    if (reader !== null) {
      const records = readWarcRecords(reader, {
        maxBlockBytes: options.maxHtmlBytes + 64 * 1024,
        onProblem: (kind, offset, message) => {
          counts[kind]++;
          log(offset, `${kind === 'truncated' ? 'truncated input' : 'damaged record'}: ${message}`);
        },
      });
      for await (const rec of records) {
        if (hooks.signal?.aborted) throw new AssayError('CANCELLED', 'cancelled');
        counts.records++;
        const out = pageFromRecord(rec, ctx);
        if (out.unknownCharset) counts.unknownCharset++;
        if ('skip' in out) counts[out.skip]++;
        else {
          counts.kept++;
          const line = JSON.stringify(out.doc) + '\n';
          tokens += estimateTokens(Buffer.byteLength(out.doc.text as string));
          await writer.write(line);
        }
        if (counts.records % PROGRESS_EVERY === 0) progress();
      }
    }
    progress();
    await writer.commit();
  } catch (e) {
    source.destroy();
    await writer.abort().catch(() => undefined);
    if (e instanceof AssayError) throw e;
    throw new AssayError('INTERNAL', `failed at ${placeOf(source, reader?.offset ?? 0)}: ${(e as Error).message}`, { file: task.input, cause: e });
  }
  // A decoder that failed (truncated gzip) stops the hashing pass-through early: hash the file once more then.
  const inputSha256 = reader?.truncated || !source.digest ? await sha256File(task.input) : (await source.digest).sha256;
  return { input: task.input, output: task.output, counts, bytes: reader?.offset ?? 0, outputSize: writer.bytesOut, outputSha256: writer.sha256, inputSha256, tokens };
}
