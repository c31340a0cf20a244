// Document pages (filtered, sorted, with fates under a recipe) and one document's full detail.
import type { DocumentDetail, DocumentPage, DocumentQuery, DocumentRow, DocumentSpan } from '../../../../shared/contract/workspace.js';
import { codePointOffsets } from '../../mix/spans.js';
import type { EngineState, StreamAnalysis } from '../preview/analyze.js';
import type { Bitset } from '../preview/bitset.js';
import type { DB } from '../store/db.js';
import { idsOf } from './ids.js';
import { rowReason } from './reasons.js';
import { fateOf, keyColumn, selectDocuments, valueOf } from './select.js';

const SNIPPET = 200;

export function documentsPage(db: DB, st: EngineState, streams: readonly StreamAnalysis[] | null, q: DocumentQuery, search?: (q: string) => Bitset): DocumentPage {
  const data = st.data;
  const sel = selectDocuments(db, st, streams, q, search);
  const total = sel.total;
  const page = sel.slice(q.offset, q.limit);
  const ids = idsOf(db, data, page);
  const rows = page.map((g, i): DocumentRow => {
    const f = data.fileOf(g);
    const values: DocumentRow['values'] = {};
    for (const c of q.columns ?? []) {
      const col = keyColumn(data, c);
      values[c] = col ? valueOf(col, g) : null;
    }
    const text = st.mat.raw(g).text;
    const fate = fateOf(streams, g, true);
    const a = fate.droppedBy !== undefined ? streams?.find((x) => x.scope.docs.has(g)) : undefined;
    const reason = a !== undefined && fate.droppedBy !== undefined ? rowReason(a, fate.droppedBy, st, g) : undefined;
    return {
      id: ids[i] as string,
      source: data.sourceNames[data.source[g] as number] ?? '',
      file: f.path,
      line: st.data.ordOf(f, g) + 1,
      bytes: data.bytes[g] as number,
      chars: data.chars[g] as number,
      tokens: data.tokens[g] as number,
      // A tokenizer count when `assay index --tokenizer` made one for this document's file, else ⌈bytes/4⌉.
      tokensExact: data.tokensExact(g),
      ...fate,
      ...(reason !== undefined ? { reason } : {}),
      values,
      snippet: typeof text === 'string' ? Array.from(text.slice(0, SNIPPET * 2)).slice(0, SNIPPET).join('') : '',
    };
  });
  return { total, offset: q.offset, rows };
}

export function documentDetail(db: DB, st: EngineState, g: number): DocumentDetail {
  const data = st.data;
  const f = data.fileOf(g);
  const raw = st.mat.raw(g);
  const text = typeof raw.text === 'string' ? raw.text : '';
  const units = codePointOffsets(text);
  const u = (cp: number): number => units[Math.min(cp, units.length - 1)] ?? text.length;
  const spans: DocumentSpan[] = [];
  const values: Record<string, unknown> = {};
  const visit = (set: string, attrs: unknown): void => {
    if (attrs === null || typeof attrs !== 'object' || Array.isArray(attrs)) return;
    const walk = (prefix: string, obj: Record<string, unknown>, depth: number): void => {
      for (const [k, v] of Object.entries(obj)) {
        const key = prefix ? `${prefix}.${k}` : k;
        if (Array.isArray(v)) {
          const list = v.filter((s): s is [number, number, number] => Array.isArray(s) && s.length >= 3 && typeof s[0] === 'number' && typeof s[1] === 'number' && typeof s[2] === 'number');
          for (const s of list) spans.push({ set, key, start: u(s[0]), end: u(s[1]), score: s[2] });
          if (list.length === 1 && list[0]) values[key] = list[0][2];
          // A list of strings (decon's `__decon__hits`: "<set>:<item_id>") is a value the inspector reads.
          else if (v.length > 0 && v.every((x) => typeof x === 'string')) values[key] = v;
        } else if (v !== null && typeof v === 'object' && depth < 2) walk(key, v as Record<string, unknown>, depth + 1);
        else values[key] = v;
      }
    };
    walk('', attrs as Record<string, unknown>, 0);
  };
  visit('(document)', raw.attributes);
  for (const set of f.sets.keys()) visit(set, st.mat.attributes(g, set));
  const meta = raw.metadata;
  return {
    id: idsOf(db, data, [g])[0] as string,
    source: typeof raw.source === 'string' ? raw.source : '',
    file: f.path,
    line: st.data.ordOf(f, g) + 1,
    text,
    metadata: meta !== null && typeof meta === 'object' && !Array.isArray(meta) ? (meta as Record<string, unknown>) : {},
    spans,
    values,
  };
}
