// The contamination report: per eval set the share of items a document overlaps, the documents and tokens per source that hold them, the top items.
import { stat } from 'node:fs/promises';
import type { DeconReport, DeconSetReport, DeconSourceRow, DeconTokens, DeconTopItem } from '../../../../shared/contract/decon.js';
import { AssayError } from '../../errors.js';
import { attributePathFor } from '../../io/index.js';
import { estimateTokens } from '../../manifest/write.js';
import { parseRef, type EvalItems } from './items.js';
import { zipAttributes } from './zip.js';

/** Exact token counts of one documents file by 1-based line, or null where the index has none (the estimate is used). */
export type TokenLookup = (file: string) => Promise<((line: number) => number | null) | null>;

export interface ReportOptions {
  /** Documents files (already expanded), each with an attribute file under `attributes/<attributeSet>/`. */
  files: readonly string[];
  /** The decon name: keys `<name>__decon__hits`, `<name>__decon__ngrams`. */
  name: string;
  /** The attribute set folder (default: the name). */
  attributeSet?: string;
  items: EvalItems | null;
  /** Items listed per set (default 10). */
  top?: number;
  tokens?: TokenLookup;
  signal?: AbortSignal;
  /** How files are named in the report (default as given). */
  show?: (file: string) => string;
}

const MAX_IDS = 20;

class Tally {
  docs = 0;
  count = 0;
  exact = true;
  add(tokens: number, exact: boolean): void {
    this.docs++;
    this.count += tokens;
    this.exact &&= exact;
  }
  tokens = (): DeconTokens => ({ count: this.count, kind: this.docs > 0 && this.exact ? 'exact' : 'estimate' });
}

interface SetTally {
  all: Tally;
  bySource: Map<string, Tally>;
  items: Map<string, { docs: number; documents: string[] }>;
}

const tallyIn = <K>(m: Map<K, Tally>, k: K): Tally => m.get(k) ?? (m.set(k, new Tally()), m.get(k)!);

function sourceRows(hit: Map<string, Tally>, total: Map<string, Tally>): DeconSourceRow[] {
  return [...total.keys()].sort().map((source) => {
    const h = hit.get(source) ?? new Tally();
    const t = total.get(source)!;
    return { source, docs: h.docs, tokens: h.tokens(), totalDocs: t.docs, totalTokens: t.tokens() };
  });
}

export async function deconReport(o: ReportOptions): Promise<DeconReport> {
  const set = o.attributeSet ?? o.name;
  const hitsKey = `${o.name}__decon__hits`;
  const ngramsKey = `${o.name}__decon__ngrams`;
  const totals = new Map<string, Tally>();
  const anyHit = new Map<string, Tally>();
  const sets = new Map<string, SetTally>();
  let docs = 0;
  let ngrams = 0;
  let seenKey = false;
  for (const file of [...o.files].sort()) {
    const attrFile = attributePathFor(file, set);
    if (!(await stat(attrFile).then((s) => s.isFile(), () => false))) {
      throw new AssayError('CONFIG', `no decon attributes for this documents file (looked for ${attrFile}): run assay decon on it first`, { file });
    }
    const exact = (await o.tokens?.(file)) ?? null;
    for await (const { line, doc, attributes } of zipAttributes(file, attrFile, o.signal)) {
      docs++;
      const source = typeof doc['source'] === 'string' ? doc['source'] : '';
      const counted = exact?.(line) ?? null;
      const tokens = counted ?? estimateTokens(Buffer.byteLength(typeof doc['text'] === 'string' ? doc['text'] : '', 'utf8'));
      tallyIn(totals, source).add(tokens, counted !== null);
      const ng = attributes[ngramsKey];
      if (Array.isArray(ng)) {
        seenKey = true;
        for (const s of ng) if (Array.isArray(s) && typeof s[2] === 'number') ngrams += s[2];
      }
      const hits = attributes[hitsKey];
      if (!Array.isArray(hits) || hits.length === 0) continue;
      seenKey = true;
      tallyIn(anyHit, source).add(tokens, counted !== null);
      const id = String(doc['id']);
      const bySet = new Map<string, Set<string>>();
      for (const h of hits) {
        if (typeof h !== 'string') continue;
        const r = parseRef(h);
        (bySet.get(r.set) ?? bySet.set(r.set, new Set()).get(r.set)!).add(r.id);
      }
      for (const [name, ids] of bySet) {
        let t = sets.get(name);
        if (!t) sets.set(name, (t = { all: new Tally(), bySource: new Map(), items: new Map() }));
        t.all.add(tokens, counted !== null);
        tallyIn(t.bySource, source).add(tokens, counted !== null);
        for (const item of ids) {
          const it = t.items.get(item) ?? t.items.set(item, { docs: 0, documents: [] }).get(item)!;
          it.docs++;
          if (it.documents.length < MAX_IDS) it.documents.push(id);
        }
      }
    }
  }
  const notes: string[] = [];
  if (docs > 0 && !seenKey) notes.push(`no document carries ${ngramsKey} or ${hitsKey}: is "${o.name}" the decon name these attributes were written with?`);
  if (o.items === null) notes.push('no eval items file: item counts (so the contaminated fraction) and item texts are unknown');
  const names = new Set([...sets.keys(), ...(o.items?.counts.keys() ?? [])]);
  const top = o.top ?? 10;
  const setReports: DeconSetReport[] = [...names].sort().map((name) => {
    const t = sets.get(name) ?? { all: new Tally(), bySource: new Map<string, Tally>(), items: new Map() };
    const items = o.items?.counts.get(name) ?? null;
    const hitItems = t.items.size;
    const ranked: DeconTopItem[] = [...t.items]
      .sort(([a, x], [b, y]) => y.docs - x.docs || (a < b ? -1 : a > b ? 1 : 0))
      .slice(0, top)
      .map(([id, it]) => ({ ref: `${name}:${id}`, id, docs: it.docs, documents: it.documents, text: o.items?.text(name, id) ?? null }));
    if (items !== null && hitItems > items) notes.push(`${name}: ${hitItems} items hit but the eval items file counts ${items}`);
    return { set: name, items, hitItems, fraction: items ? hitItems / items : items === 0 ? 0 : null, docs: t.all.docs, tokens: t.all.tokens(), bySource: sourceRows(t.bySource, totals), top: ranked };
  });
  const show = o.show ?? ((f: string) => f);
  return {
    schema: 'assay.decon-report',
    version: 1,
    name: o.name,
    attributeSet: set,
    created: new Date().toISOString(),
    files: [...o.files].sort().map(show),
    docs,
    contaminated: [...anyHit.values()].reduce((n, t) => n + t.docs, 0),
    ngrams,
    sources: sourceRows(anyHit, totals),
    sets: setReports,
    itemsFile: o.items ? show(o.items.path) : null,
    notes,
  };
}
