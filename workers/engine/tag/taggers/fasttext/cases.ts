// DataTrove LanguageFilter conformance cases, run with the lid.176.ftz shipped in fasttext.wasm.js.
import { decideLanguage, type LanguageDecision } from './language-filter.js';
import { DEFAULT_LID_MODEL, loadFastTextModel, type FastTextModel } from './model.js';

type Outcome = { status: 'pass' } | { status: 'fail'; message: string } | { status: 'skip'; reason: string };

/**
 * Largest |lid.176.ftz − lid.176.bin| probability gap we rely on: the quantised model's scores
 * move by a few hundredths (e.g. "This is pure english text": en 0.86989 here vs 0.887 upstream),
 * so a decision closer than this to the threshold is not reproducible without lid.176.bin.
 */
const QUANTISATION_GAP = 0.03;

// Top-level await: the runner contract is synchronous and the WASM model loads asynchronously.
const loaded: { model: FastTextModel } | { error: string } = await loadFastTextModel(DEFAULT_LID_MODEL).then(
  (model) => ({ model }),
  (e: unknown) => ({ error: e instanceof Error ? e.message : String(e) }),
);

/** Handles `kind: filter, filter: LanguageFilter` cases; null for every other case. */
export function runLanguageCase(c: Record<string, unknown>): Outcome | null {
  if (c['kind'] !== 'filter' || c['filter'] !== 'LanguageFilter') return null;
  const p = (c['params'] ?? {}) as Record<string, unknown>;
  if ((p['backend'] ?? 'ft176') !== 'ft176') {
    return { status: 'skip', reason: `backend ${String(p['backend'])} needs GlotLID's model_v3.bin, which is not shipped (only lid.176.ftz is)` };
  }
  if ('error' in loaded) return { status: 'fail', message: `cannot load ${DEFAULT_LID_MODEL}: ${loaded.error}` };
  const langs = p['languages'];
  const threshold = typeof p['language_threshold'] === 'number' ? p['language_threshold'] : 0.65;
  const d = decideLanguage(loaded.model, String(c['text'] ?? ''), {
    languages: typeof langs === 'string' ? [langs] : Array.isArray(langs) ? langs.map(String) : undefined,
    language_threshold: threshold,
    profile: 'head',
    label_only: p['label_only'] === true,
    keep_top_pairs_threshold: typeof p['keep_top_pairs_threshold'] === 'number' ? p['keep_top_pairs_threshold'] : -1,
  });
  const { problems, scoreGap } = check(c, d);
  if (problems.length === 0) return scoreGap === undefined ? { status: 'pass' } : { status: 'skip', reason: scoreGap };
  const near = nearThreshold(d, threshold);
  if (near !== undefined) {
    return {
      status: 'skip',
      reason: `${problems.join('; ')} — but lid.176.ftz's ${near} is within ${QUANTISATION_GAP} of the threshold ${threshold}, ` +
        'so the outcome depends on lid.176.bin\'s exact score, which the quantised model cannot reproduce',
    };
  }
  return { status: 'fail', message: problems.join('; ') };
}

/** Decision/label mismatches, and separately an exact-score expectation the quantised model misses. */
function check(c: Record<string, unknown>, d: LanguageDecision): { problems: string[]; scoreGap?: string } {
  const problems: string[] = [];
  const expected = c['expected'];
  if (expected === 'kept' && !d.kept) problems.push(`expected kept, got dropped (scores ${JSON.stringify(d.scores)})`);
  if (expected === 'dropped' && d.kept) problems.push(`expected dropped, got kept (scores ${JSON.stringify(d.scores)})`);
  const meta = (c['expected_metadata'] ?? {}) as Record<string, unknown>;
  if (meta['language'] !== undefined && meta['language'] !== d.language) {
    problems.push(`expected language ${String(meta['language'])}, got ${d.language} (${d.languageScore})`);
  }
  const score = meta['language_score'];
  if (typeof score !== 'number' || Math.abs(score - d.languageScore) <= 1e-6) return { problems };
  const gap = Math.abs(score - d.languageScore);
  const msg = `language_score: lid.176.ftz gives ${d.languageScore.toFixed(5)}, ${gap.toPrecision(3)} from lid.176.bin's ${score}`;
  if (gap > QUANTISATION_GAP) problems.push(msg);
  return { problems, scoreGap: `${msg}; the quantised model cannot reproduce lid.176.bin's exact score` };
}

/** The score (named) that sits too close to the threshold for the quantised model to decide. */
function nearThreshold(d: LanguageDecision, threshold: number): string | undefined {
  const named: [string, number][] = Object.entries(d.scores).map(([l, s]): [string, number] => [`P(${l})`, s]);
  named.push([`top score P(${d.language})`, d.languageScore]);
  const close = named.find(([, s]) => Math.abs(s - threshold) < QUANTISATION_GAP);
  return close === undefined ? undefined : `${close[0]} = ${close[1].toFixed(5)}`;
}
