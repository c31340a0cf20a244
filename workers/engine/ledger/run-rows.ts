// A mix ledger's documents summed per source and fate: raw, kept by the rules, kept by sampling, and each rule's loss.
import type { SourceTokenLedger, StageFigures } from '../../../shared/contract/mixplan.js';
import { AssayError } from '../errors.js';
import { KEPT, REMOVED, type LedgerDB } from './schema.js';

export interface SourceRows {
  raw: StageFigures;
  /** Kept by include/exclude and min_text_length (sampled out, kept and later removed documents). */
  filtered: StageFigures;
  /** Kept (written) documents. */
  kept: StageFigures;
  /** Lines written for the kept documents (Σ copies) and the UTF-8 bytes of those lines' input texts. */
  copies: number;
  copiedBytes: number;
  minCopies: number;
  maxCopies: number;
  removed: number;
  lost: SourceTokenLedger['lostByRule'];
}

interface Group {
  source: string;
  stream: number;
  fate: number;
  docs: number;
  bytes: number;
  tokens: number;
  copies: number;
  copied_bytes: number;
  min_copies: number;
  max_copies: number;
}

const zero = (): StageFigures => ({ docs: 0, bytes: 0, tokens: 0 });
const fig = (g: Group): StageFigures => ({ docs: g.docs, bytes: g.bytes, tokens: g.tokens });
const add = (a: StageFigures, b: StageFigures): void => {
  a.docs += b.docs;
  a.bytes += b.bytes;
  a.tokens += b.tokens;
};

/** Sums the ledger per (source, stream, fate) in SQLite; tokens are ⌈bytes / 4⌉ per document, as the index estimates them. */
export function sourceRows(db: LedgerDB, file: string): Map<string, SourceRows> {
  const cols = new Set((db.prepare('PRAGMA table_info(docs)').all() as { name: string }[]).map((c) => c.name));
  if (!cols.has('bytes') || !cols.has('copies')) {
    throw new AssayError('IO', 'this ledger predates byte counts per document (written by an older assay mix): rerun the mix to rewrite it', { file });
  }
  const rules = db.prepare('SELECT r.stream, r.reason, r.key, r.text, s.name FROM rules r JOIN streams s ON s.id = r.stream ORDER BY r.stream, r.reason').all() as
    { stream: number; reason: number; key: string; text: string; name: string }[];
  const streams = new Set(rules.map((r) => r.stream));
  const ruleAt = new Map(rules.map((r, i) => [`${r.stream}:${r.reason}`, { rule: i, key: r.key, label: `${streams.size > 1 ? `${r.name}: ` : ''}${r.key === r.text ? r.key : `${r.key}: ${r.text}`}` }]));
  const groups = db
    .prepare(
      `SELECT source, stream, fate, count(*) AS docs, total(bytes) AS bytes, total((bytes + 3) / 4) AS tokens, total(copies) AS copies,
        total(bytes * copies) AS copied_bytes, min(copies) AS min_copies, max(copies) AS max_copies
       FROM docs GROUP BY source, stream, fate ORDER BY source, stream, fate`,
    )
    .all() as Group[];
  const out = new Map<string, SourceRows>();
  for (const g of groups) {
    let s = out.get(g.source);
    if (!s) {
      s = { raw: zero(), filtered: zero(), kept: zero(), copies: 0, copiedBytes: 0, minCopies: Infinity, maxCopies: 0, removed: 0, lost: [] };
      out.set(g.source, s);
    }
    add(s.raw, fig(g));
    const rule = ruleAt.get(`${g.stream}:${g.fate}`);
    if (g.fate === KEPT) {
      add(s.filtered, fig(g));
      add(s.kept, fig(g));
      s.copies += g.copies;
      s.copiedBytes += g.copied_bytes;
      s.minCopies = Math.min(s.minCopies, g.min_copies);
      s.maxCopies = Math.max(s.maxCopies, g.max_copies);
      continue;
    }
    if (g.fate === REMOVED || rule?.key === 'sample') add(s.filtered, fig(g));
    if (g.fate === REMOVED) s.removed += g.docs;
    const at = rule ?? { rule: rules.length, label: g.fate === REMOVED ? 'removed by request (assay remove)' : `reason ${g.fate}` };
    const same = s.lost.find((l) => l.rule === at.rule);
    if (same) {
      same.docs += g.docs;
      same.tokens += g.tokens;
    } else s.lost.push({ rule: at.rule, label: at.label, docs: g.docs, tokens: g.tokens });
  }
  for (const s of out.values()) {
    s.lost.sort((a, b) => a.rule - b.rule);
    if (s.minCopies === Infinity) s.minCopies = 0;
  }
  return out;
}
