// Runs DataTrove conformance cases (kinds filter, formatter, util) through these taggers, the way a recipe would.
import { applyReplacements, type Replacement } from '../../../mix/spans.js';
import { simplifyText, type TextNormConfig } from '../../../text/simplify.js';
import { splitIntoWords } from '../../../text/words.js';
import { utf16ToCodePoints } from '../../output.js';
import type { TagDocument, Tagger, TaggerSpec, TagSpan } from '../../types.js';
import { c4Paragraph } from './c4-paragraph.js';
import { c4QualityTagger } from './c4-quality.js';
import { fineWebQuality } from './fineweb-quality.js';
import { gopherQuality } from './gopher-quality.js';
import { gopherRepetition } from './gopher-repetition.js';
import { piiFormatter } from './pii.js';
import { regexFilter } from './regex-filter.js';
import { symbolLinesFormatter } from './symbol-lines.js';
import { urlFilter } from './url-filter.js';

export type CaseOutcome = { status: 'pass' } | { status: 'fail'; message: string } | { status: 'skip'; reason: string };
type Case = Record<string, unknown>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each spec has its own options type
type AnySpec = TaggerSpec<any>;

const FILTERS: Record<string, AnySpec> = {
  GopherRepetitionFilter: gopherRepetition,
  GopherQualityFilter: gopherQuality,
  C4QualityFilter: c4QualityTagger,
  C4ParagraphFilter: c4Paragraph,
  FineWebQualityFilter: fineWebQuality,
  URLFilter: urlFilter,
  RegexFilter: regexFilter,
};
const SKIPPED: Record<string, string> = {
  UnigramLogProbFilter: 'needs unigram_freq.csv (Google 1T unigram counts), which is not shipped',
  Trafilatura: 'needs the Trafilatura HTML extractor (Python); Assay has no port of it',
};

const fail = (message: string): CaseOutcome => ({ status: 'fail', message });

/** Build a tagger from DataTrove constructor kwargs, through the spec's own option schema. */
function tagger(spec: AnySpec, params: unknown): Tagger {
  const options: unknown = spec.options ? spec.options.parse(params ?? {}) : {};
  const t = spec.create(options, { seed: 0, cwd: process.cwd() });
  if (t instanceof Promise) throw new Error(`${spec.name} needs files for these options`);
  return t;
}

function tagCase(spec: AnySpec, c: Case, params: unknown = c['params']): TagSpan[] {
  const text = String(c['text'] ?? '');
  const metadata = (c['metadata'] ?? {}) as Record<string, unknown>;
  const doc: TagDocument = { id: String(c['id']), text, source: '', metadata, record: { text, metadata } };
  return tagger(spec, params).tag(doc) as TagSpan[];
}

/** The mixer's span replacement (mix/spans.ts) applied with one replacement string per span type. */
export function applySpans(text: string, spans: readonly TagSpan[], replacementFor: (type: string) => string | undefined): string {
  const toCp = utf16ToCodePoints(text);
  const reps: Replacement[] = [];
  for (const s of spans) {
    const replacement = replacementFor(s.type);
    if (replacement === undefined) continue;
    reps.push({ start: toCp ? toCp(s.start) : s.start, end: toCp ? toCp(s.end) : s.end, replacement });
  }
  return applyReplacements(text, reps);
}

const LINE_EDITS: Record<string, string> = { line_removed: '', trimmed: '', separator: '\n' };

function runFilter(c: Case): CaseOutcome | null {
  const name = String(c['filter']);
  if (name in SKIPPED) return { status: 'skip', reason: SKIPPED[name] as string };
  const spec = FILTERS[name];
  if (!spec) return null;
  const spans = tagCase(spec, c);
  const kept = spans.find((s) => s.type === 'kept')?.score;
  const reasons = spans.filter((s) => s.type.startsWith('reason_')).map((s) => s.type.slice('reason_'.length));
  const expected = String(c['expected']);
  const got = kept === 1 ? 'kept' : reasons.length === 0 ? 'dropped' : reasons.join('+');
  if (got !== expected) return fail(`expected ${expected}, got ${got}`);
  if (typeof c['expected_text'] === 'string') {
    const out = applySpans(String(c['text']), spans, (t) => LINE_EDITS[t]);
    if (out !== c['expected_text']) return fail(`text after line edits: ${JSON.stringify(out)}`);
  }
  return { status: 'pass' };
}

function runFormatter(c: Case): CaseOutcome | null {
  const name = String(c['filter']);
  if (name in SKIPPED) return { status: 'skip', reason: SKIPPED[name] as string };
  const params = (c['params'] ?? {}) as Record<string, unknown>;
  let out: string;
  if (name === 'PIIFormatter') {
    const list = (v: unknown, def: string[]) => (v === undefined ? def : typeof v === 'string' ? [v] : (v as string[]));
    const emails = list(params['email_replacement'], ['email@example.com', 'firstname.lastname@example.org']);
    const ips = list(params['ip_replacement'], ['22.214.171.124', '126.96.36.199', '188.8.131.52', '184.108.40.206', '220.127.116.11', '18.104.22.168']);
    const spans = tagCase(piiFormatter, c, { ...params, cycle_replacements: true });
    out = applySpans(String(c['text']), spans, (t) => {
      const [kind, k] = t.split('_');
      return (kind === 'email' ? emails : ips)[Number(k)];
    });
  } else if (name === 'SymbolLinesFormatter') {
    const replaceChar = String(params['replace_char'] ?? '');
    out = applySpans(String(c['text']), tagCase(symbolLinesFormatter, c), (t) => (t === 'line_replaced' ? replaceChar : LINE_EDITS[t]));
  } else return null;
  return out === c['expected_text'] ? { status: 'pass' } : fail(`got ${JSON.stringify(out)}`);
}

function runUtil(c: Case): CaseOutcome | null {
  const text = String(c['text'] ?? '');
  const params = (c['params'] ?? {}) as Record<string, unknown>;
  if (c['filter'] === 'simplify_text') {
    const out = simplifyText(text, params as Partial<TextNormConfig>);
    return out === c['expected_text'] ? { status: 'pass' } : fail(`got ${JSON.stringify(out)}`);
  }
  if (c['filter'] === 'word_tokenize') {
    const got = splitIntoWords(text, String(params['language'] ?? 'eng'));
    const want = c['expected_tokens'] as string[];
    if (JSON.stringify(got) === JSON.stringify(want)) return { status: 'pass' };
    const i = got.findIndex((t, k) => t !== want[k]);
    return fail(`${got.length} tokens (want ${want.length}); first difference at ${i}: ${JSON.stringify(got.slice(i, i + 3))} vs ${JSON.stringify(want.slice(i, i + 3))}`);
  }
  return null;
}

/**
 * One conformance case, or null for kinds and classes handled elsewhere (LanguageFilter: language-id helper;
 * stats, dedup, executor). Skips only what needs an unavailable asset.
 */
export function runDatatroveCase(c: Record<string, unknown>): CaseOutcome | null {
  if (c['filter'] === 'LanguageFilter') return null;
  if (c['kind'] === 'filter') return runFilter(c);
  if (c['kind'] === 'formatter') return runFormatter(c);
  if (c['kind'] === 'util') return runUtil(c);
  return null;
}
