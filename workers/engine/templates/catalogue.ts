// A starter recipe written from the workspace's attribute catalogue: one commented exclude rule per numeric attribute, PII spans redacted.
import { documentGlobs, type TemplateContext } from './layout.js';

type Entry = TemplateContext['catalogue'][number];

/** At most this many rules: a catalogue of every DataTrove sub-rule would otherwise give a wall of them. */
const MAX_RULES = 40;
const PII = /(^|_)(email|e_mail|phone|ip_address|ip_\d+|ip|url|credit_card|ssn|pii)(_|$)/i;

const num = (x: number): string => String(Number(x.toPrecision(6)));
const q = (e: Entry, p: number): number | undefined => e.quantiles.find((x) => Math.abs(x.p - p) < 1e-9)?.value;
const rule = (key: string, test: string): string => `"$.attributes[?(@.${key} && @.${key}[0] && @.${key}[0][2] ${test})]"`;
const isFlag = (e: Entry): boolean => e.min === 0 && e.max === 1 && e.quantiles.every((x) => x.value === 0 || x.value === 1);

/** The exclude rule for one attribute, with the comment that labels it, or null when the attribute is not a filter signal. */
function excludeFor(e: Entry, byKey: ReadonlySet<string>): { comment: string; rule: string } | null {
  if (e.kind !== 'document' || e.min === null || e.max === null || e.min === e.max || e.key.includes('.')) return null;
  const m = /^(.*)__([^_].*)$/.exec(e.key);
  const prefix = m?.[1] ?? '';
  const name = m?.[2] ?? e.key;
  // A DataTrove filter's verdict stands for its sub-rules (their values stay in the histograms, as sub-rules).
  if (name === 'kept' && isFlag(e)) return { comment: `${e.tagger ?? prefix}: drops what DataTrove's filter drops (${e.docs} documents tagged)`, rule: rule(e.key, '== 0') };
  if (byKey.has(`${prefix}__kept`) || name.startsWith('reason_') || name.endsWith('_fail')) return null;
  // Decontamination: one overlap is already too many (a percentile would keep most contaminated documents); the
  // n-gram count is the same signal again.
  if (e.key.endsWith('__decon__items')) return { comment: `${e.key} > 0: drops documents that repeat an eval item`, rule: rule(e.key, '> 0') };
  if (e.key.endsWith('__decon__ngrams')) return null;
  if (isFlag(e)) return { comment: `${e.key} = 1: drops the documents flagged`, rule: rule(e.key, '>= 1') };
  const p99 = q(e, 0.99) ?? e.max;
  const p1 = q(e, 0.01) ?? e.min;
  return { comment: `${e.key} above its 99th percentile (${num(p99)}); its 1st percentile is ${num(p1)}: drag the threshold in the histogram`, rule: rule(e.key, `> ${num(p99)}`) };
}

export function renderCatalogueRecipe(ctx: TemplateContext): string {
  const entries = [...ctx.catalogue].sort((a, b) => (a.set === b.set ? (a.key < b.key ? -1 : 1) : a.set < b.set ? -1 : 1));
  const keys = new Set(entries.map((e) => e.key));
  const sets = [...new Set(entries.map((e) => e.set))];
  const rules = entries.flatMap((e) => excludeFor(e, keys) ?? []).slice(0, MAX_RULES);
  const pii = entries.filter((e) => e.kind === 'spans' && PII.test(e.key.split('__').at(-1) ?? ''));
  const lines = [
    "# Starter recipe from this workspace's attribute catalogue (Dolma mixer format: runs unchanged in Dolma and `assay mix`).",
    '# One exclude rule per numeric attribute, thresholds from its distribution; each drops little until you tune it.',
    ...(entries.length === 0 ? ['# The workspace has no indexed attributes yet: tag and index it, then create this starter again for rules.'] : []),
    'streams:',
    '  - name: starter',
    '    documents:',
    ...documentGlobs(ctx).map((g) => `      - ${g}`),
    `    attributes: [${sets.join(', ')}]`,
    '    output:',
    '      path: output/starter',
    '      max_size_in_bytes: 1000000000',
  ];
  if (rules.length > 0) {
    lines.push('    filter:', '      exclude:');
    for (const r of rules) lines.push(`        # ${r.comment}`, `        - ${r.rule}`);
  }
  if (pii.length > 0) {
    lines.push('    span_replacement:');
    for (const e of pii) {
      const type = (e.key.split('__').at(-1) ?? 'PII').toUpperCase();
      lines.push(`      # redact ${e.key} (${e.docs} documents have such spans)`, `      - span: $.attributes.${e.key}`, '        min_score: 0.5', `        replacement: " |||${type}||| "`);
    }
  }
  lines.push('processes: 1', '');
  return lines.join('\n');
}
