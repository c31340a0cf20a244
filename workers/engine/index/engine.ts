// The preview host's engine: opens an index, keeps its columns in memory, and answers preview/explain/lint/pages.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ExplainResult, Histogram, LintIssue, PreviewResult, RecipeDiffResult, SampleBucket } from '../../../shared/contract/preview.js';
import type { AttributeKeyInfo, DocumentDetail, DocumentPage, DocumentQuery, IndexStatus, SourceInfo } from '../../../shared/contract/workspace.js';
import type { PlanRequest, PlanResult, TokenLedgerResult } from '../../../shared/contract/mixplan.js';
import { AssayError } from '../errors.js';
import { sampleUnit } from '../mix/sample.js';
import { analyze, type EngineState, type StreamAnalysis } from './preview/analyze.js';
import { Lru } from './preview/lru.js';
import { buildResult, repeatedSets } from './preview/result.js';
import { Bitset } from './preview/bitset.js';
import { TallySlots } from './preview/counts.js';
import { replacedKept, tokenFigures } from './preview/token-kind.js';
import { locateConfigError } from './recipe/errors.js';
import { Materializer } from './recipe/materialize.js';
import { newCaches, parseAndCompile, type ParsedRecipe, type RecipeCaches } from './recipe/recipe.js';
import { IndexData, type SampleSpec } from './store/data.js';
import { getMeta, indexPath, openDatabase, READABLE_SCHEMAS, SCHEMA_VERSION, schemaVersionOf, type DB } from './store/db.js';
import { SourceCache } from './store/source.js';
import { SearchIndex } from './search/search.js';
import { catalogue, histogram } from './views/catalogue.js';
import { documentDetail, documentsPage } from './views/documents.js';
import { exportDocuments, type ExportFormat } from './views/export.js';
import { subRulesOf } from './views/subrules.js';
import { diffRecipes } from './views/diff.js';
import { planMix, withoutSampling, writeSampling } from './views/plan.js';
import { tokenLedger } from './views/token-ledger.js';
import { explain } from './views/explain.js';
import { idsOf, lookupId } from './views/ids.js';
import { lint } from './views/lint.js';
import { samples } from './views/samples.js';
import { fileStatus, sourcesOf } from './views/status.js';

export interface PreviewOptions {
  ids?: boolean;
  /** Name used in error messages (the recipe's file), default `recipe`. */
  recipePath?: string;
}

export interface OpenOptions {
  /**
   * Called with every dataset file before its text is read (documents.get, explain, span text); it throws
   * to refuse one. The app refuses files a symbolic link takes outside its workspace; the CLI follows links.
   */
  checkPath?: (path: string, field: string) => void;
  /**
   * Where the recipe's relative paths resolve, as `assay mix` would resolve them when run from there:
   * the CLI passes its working directory; the default, the dataset root, is the app's workspace root.
   */
  baseDir?: string;
  /**
   * Hold a uniform sample of about this many documents instead of every one (for indexes larger than
   * memory or than a live preview's time): previews answer with estimates and confidence intervals.
   */
  sample?: SampleSpec;
}

/** Sampling positions by seed, computed from the ids in the docs table once per seed (ids are not held in memory). */
function sampleUnits(db: DB, data: IndexData): (seed: number) => Float64Array {
  const bySeed = new Lru<number, Float64Array>(4);
  return (seed) =>
    bySeed.getOr(seed, () => {
      const u = new Float64Array(data.n);
      for (const [file, ord, id] of db.prepare('SELECT file, ord, id FROM docs').raw().iterate() as IterableIterator<[number, number, string]>) {
        const f = data.byId.get(file);
        const g = f === undefined ? -1 : data.docOf(f, ord);
        if (g >= 0) u[g] = sampleUnit(id, seed);
      }
      return u;
    });
}

export class PreviewEngine {
  private db: DB;
  readonly baseDir: string;
  private readonly checkPath: OpenOptions['checkPath'];
  private readonly sampleSpec: SampleSpec | null;
  private state!: EngineState;
  private caches!: RecipeCaches;
  private readonly recipes = new Lru<string, ParsedRecipe>(32);
  // Each analysis holds a few bitsets per rule (≈ 50 MB for 20 rules at 10^7 documents): the recipe, the one compared with, one more.
  private readonly analyses = new Lru<string, StreamAnalysis[]>(3);
  private search: SearchIndex | null = null;

  private constructor(
    readonly root: string,
    opts: OpenOptions,
  ) {
    this.baseDir = resolve(opts.baseDir ?? root);
    this.checkPath = opts.checkPath;
    this.sampleSpec = opts.sample ?? null;
    this.db = PreviewEngine.connect(root);
    this.load();
  }

  /** Opens the index of a dataset; a clear AssayError when the dataset or its index is missing or outdated. */
  static open(root: string, opts: OpenOptions = {}): PreviewEngine {
    return new PreviewEngine(resolve(root), opts);
  }

  private static connect(root: string): DB {
    const st = statSync(root, { throwIfNoEntry: false });
    if (st === undefined) throw new AssayError('CONFIG', `dataset folder ${root} does not exist (moved or deleted?)`);
    if (!st.isDirectory()) throw new AssayError('CONFIG', `${root} is not a dataset folder`);
    const path = indexPath(root);
    if (!existsSync(path)) throw new AssayError('CONFIG', `${root} has no index yet (${path}); build it with \`assay index ${root}\``);
    let db: DB;
    try {
      db = openDatabase(path, { readonly: true });
    } catch (e) {
      throw new AssayError('IO', `cannot open the index: ${(e as Error).message}; rebuild it with \`assay index ${root}\``, { file: path });
    }
    const version = (() => {
      try {
        return schemaVersionOf(db);
      } catch {
        return -1;
      }
    })();
    if (!READABLE_SCHEMAS.includes(version)) {
      db.close();
      const what = version < 0 ? 'is not an Assay index' : version === 0 ? 'is empty (a build never finished)' : `was built by another version of Assay (schema ${version}; this one reads ${SCHEMA_VERSION})`;
      throw new AssayError('CONFIG', `the index at ${path} ${what}; rebuild it with \`assay index ${root}\``, { file: path });
    }
    return db;
  }

  /** Pins a read snapshot (WAL): a re-index committing meanwhile is seen only after reload(). */
  private load(): void {
    if (this.db.inTransaction) this.db.exec('COMMIT');
    this.db.exec('BEGIN');
    const data = new IndexData(this.db, this.sampleSpec);
    this.caches = newCaches(data.interner);
    this.state = {
      data,
      root: this.root,
      baseDir: this.baseDir,
      mat: new Materializer(data, new SourceCache(this.root, undefined, this.checkPath)),
      merges: new Map(),
      contexts: new Map(),
      // Two bitsets per outcome (2.5 MB at 10^7 documents): enough for every rule of a recipe and the last few edits of each.
      outcomes: new Lru(64),
      spans: new Lru(16),
      shorts: new Lru(64),
      samples: new Lru(64),
      units: sampleUnits(this.db, data),
      tallies: new Lru(1024),
      slots: new TallySlots(),
      scopes: new Map(),
    };
    this.recipes.clear();
    this.analyses.clear();
    // Sub-rule thresholds come from tag markers in the dataset: read under the same confinement as texts.
    subRulesOf(this.root, data, this.checkPath);
    this.search?.close();
    const db = this.db;
    this.search = new SearchIndex(this.root, data, () => new Map((db.prepare('SELECT path, hash FROM files').all() as { path: string; hash: string }[]).map((r) => [r.path, r.hash])));
  }

  /** After a re-index: drop every cache and read the new snapshot. */
  reload(): void {
    this.load();
  }

  close(): void {
    this.search?.close();
    this.search = null;
    if (this.db.open) {
      if (this.db.inTransaction) this.db.exec('COMMIT');
      this.db.close();
    }
  }

  private recipe(text: string, name = 'recipe'): ParsedRecipe {
    return this.recipes.getOr(`${name}\u0000${text}`, () => parseAndCompile(text, name, this.caches));
  }

  private analysis(text: string, name?: string): { recipe: ParsedRecipe; streams: StreamAnalysis[] } {
    const recipe = this.recipe(text, name);
    const streams = this.analyses.getOr(recipe.text, () => {
      try {
        return analyze(recipe, this.state);
      } catch (e) {
        throw locateConfigError(e, recipe.name, recipe.locator);
      }
    });
    return { recipe, streams };
  }

  status(): IndexStatus {
    const d = this.state.data;
    return { built: true, docs: d.n, ...(d.builtAt ? { builtAt: d.builtAt } : {}), stale: this.isStale(), schemaVersion: SCHEMA_VERSION };
  }

  private isStale(): boolean {
    if (fileStatus(this.root, this.state.data).changed) return true;
    try {
      const fresh = openDatabase(indexPath(this.root), { readonly: true });
      try {
        return Number(getMeta(fresh, 'generation') ?? '0') !== this.state.data.generation;
      } finally {
        fresh.close();
      }
    } catch {
      return true;
    }
  }

  sources(): SourceInfo[] {
    return sourcesOf(this.state.data);
  }

  /**
   * Per-document token figures for code that sums them itself (the ledger, sampling), indexed by document
   * ordinal g as every bitset here: `tokens[g]` is an exact count with `tokenizer` (what `assay tokens` writes
   * for the input text, EOS included) where `tokensExact(g)`, else ⌈UTF-8 bytes / 4⌉; `uncounted` holds the
   * estimated ones, so a sum over a set S is exact iff S ∩ uncounted is empty.
   */
  tokenData(): Pick<IndexData, 'n' | 'tokens' | 'tokensExact' | 'uncounted' | 'tokenizer' | 'source' | 'sourceNames'> {
    return this.state.data;
  }

  files(): { path: string; docs: number; bytes: number }[] {
    return this.state.data.files.map((f) => ({ path: f.path, docs: f.docs, bytes: f.size }));
  }

  /**
   * Exact token counts of one indexed documents file (its path as `files()` gives it) by line, null where the
   * index holds only the estimate; null when the file is not indexed. The decon report's exact figures.
   */
  fileTokens(path: string): { bytes: number; counts: (number | null)[] } | null {
    const data = this.state.data;
    const f = data.files.find((x) => x.path === path);
    if (!f) return null;
    return { bytes: f.size, counts: Array.from({ length: f.docs }, (_, i) => (data.tokensExact(f.start + i) ? (data.tokens[f.start + i] ?? null) : null)) };
  }

  catalogue(): AttributeKeyInfo[] {
    return catalogue(this.state.data);
  }

  preview(recipeText: string, opts: PreviewOptions = {}): PreviewResult {
    const started = performance.now();
    const { recipe, streams } = this.analysis(recipeText, opts.recipePath);
    const result = buildResult(recipe, streams, this.state, started);
    if (opts.ids) {
      const kept = streams.map((s) => s.kept).reduce((a, b) => a.or(b));
      result.keptIds = idsOf(this.db, this.state.data, kept);
      // assay.repeat writes a document several times: its id is listed once per copy, as in the output.
      for (const s of streams) for (const [extra, set] of repeatedSets(s, this.state.data)) for (const id of idsOf(this.db, this.state.data, set)) for (let c = 0; c < extra; c++) result.keptIds.push(id);
    }
    result.elapsedMs = Math.round((performance.now() - started) * 100) / 100;
    return result;
  }

  /** Every document whose fate differs between two recipes (old, new), grouped by change and rules, with sample ids. */
  diff(oldText: string, newText: string, opts: { oldPath?: string; newPath?: string; samples?: number } = {}): RecipeDiffResult {
    const started = performance.now();
    const a = this.analysis(oldText, opts.oldPath);
    const b = this.analysis(newText, opts.newPath);
    const sides = { oldRecipe: a.recipe, newRecipe: b.recipe, oldStreams: a.streams, newStreams: b.streams };
    return diffRecipes(sides, this.state.data, this.root, opts.samples ?? 20, (gs) => idsOf(this.db, this.state.data, gs), started);
  }

  /** Per source, documents, bytes and tokens raw → filtered → sampled → seen under a recipe (what `assay mix` will write). */
  tokenLedger(recipeText: string, opts: { epochs?: number; recipePath?: string } = {}): TokenLedgerResult {
    const started = performance.now();
    const { recipe, streams } = this.analysis(recipeText, opts.recipePath);
    const inStreams = streams.map((a) => a.scope.docs).reduce((x, y) => x.or(y), new Bitset(this.state.data.n));
    const tokens = tokenFigures(this.state.data, inStreams, replacedKept(streams));
    return tokenLedger(recipe, streams, this.state.data, this.root, tokens, opts.epochs ?? 1, started);
  }

  /** Sample fractions and repeats per source meeting a budget and target shares, written into the recipe; or the binding source. */
  plan(recipeText: string, req: PlanRequest, opts: { recipePath?: string } = {}): PlanResult {
    const own = this.recipe(recipeText, opts.recipePath).config.streams.find((s) => s.assay?.sample)?.assay?.sample?.seed;
    const { streams } = this.analysis(withoutSampling(recipeText), opts.recipePath);
    const out = planMix(streams, this.state.data, this.state.units, req, req.seed ?? own ?? 0);
    if (!out.feasible) return out;
    const recipe = writeSampling(recipeText, out.choices, out.seed);
    const ledger = this.tokenLedger(recipe, opts);
    const seen = new Map(ledger.sources.map((x) => [x.source, x]));
    const sources = out.choices.map((c) => ({ source: c.source, fraction: c.fraction, repeat: c.repeat, seenTokens: seen.get(c.source)?.seen.tokens ?? 0, share: seen.get(c.source)?.share ?? 0, target: c.target }));
    return { feasible: true, recipe, sources, ledger };
  }

  samples(recipeText: string, rule: number, bucket: SampleBucket, offset: number, limit: number): { ids: string[]; total: number; bucket: SampleBucket } {
    const { streams } = this.analysis(recipeText);
    return samples(this.db, this.state.data, streams, rule, bucket, offset, limit);
  }

  explain(recipeText: string, id: string, opts: { recipePath?: string } = {}): ExplainResult {
    const { recipe, streams } = this.analysis(recipeText, opts.recipePath);
    return explain(recipe, streams, this.state, lookupId(this.db, this.state.data, id));
  }

  lint(recipeText: string, opts: { recipePath?: string } = {}): LintIssue[] {
    return lint(recipeText, opts.recipePath ?? 'recipe', (text, name) => this.analysis(text, name), this.state.data);
  }

  histogram(key: string, bins: number): Histogram {
    return histogram(this.state.data, key, bins);
  }

  documentsPage(q: DocumentQuery): DocumentPage {
    const streams = q.recipeText !== undefined ? this.analysis(q.recipeText).streams : null;
    return documentsPage(this.db, this.state, streams, q, (text) => this.searchIndex().match(text));
  }

  /**
   * Writes every document the query selects (not a page) to `path` as CSV or JSONL, streamed through a temporary
   * file renamed into place; with `recipeText`, each row's fate, dropping rule and reason. The caller confines `path`.
   */
  exportDocuments(q: Omit<DocumentQuery, 'offset' | 'limit'>, format: ExportFormat, path: string): { rows: number; bytes: number } {
    const streams = q.recipeText !== undefined ? this.analysis(q.recipeText).streams : null;
    return exportDocuments(this.db, this.state, streams, q, format, path, (text) => this.searchIndex().match(text));
  }

  /** With `search`: also the ranges of the text that search matches (UTF-16), for highlighting. */
  document(id: string, opts: { search?: string } = {}): DocumentDetail {
    const d = documentDetail(this.db, this.state, lookupId(this.db, this.state.data, id));
    if (opts.search !== undefined && opts.search.trim() !== '') d.matches = this.searchIndex().matches(d.text, opts.search);
    return d;
  }

  private searchIndex(): SearchIndex {
    if (this.search === null) throw new AssayError('INTERNAL', 'the engine is closed');
    // Search positions are the whole index's; a sampled engine answers previews, not searches.
    if (this.state.data.sample !== null) throw new AssayError('CONFIG', 'text search needs the whole index, not a sample: open it without sampling');
    return this.search;
  }
}
