// pii_formatter: DataTrove's PIIFormatter (datatrove-spec §10.1) as email/ip spans the mixer's span_replacement redacts.
import { z } from 'zod';
import type { TaggerSpec, TagSpan } from '../../types.js';
import { profileOption, type Profile } from './common.js';
import { findEmails, IPV4, ipAccepted } from './pii-match.js';

const replacements = (def: string[], what: string) =>
  z
    .union([z.string(), z.array(z.string()).min(1)])
    .default(def)
    .transform((v) => (typeof v === 'string' ? [v] : v))
    .describe(what);

export const piiOptions = z
  .object({
    remove_emails: z.boolean().default(true).describe('Tag email addresses'),
    remove_ips: z.boolean().default(true).describe('Tag IPv4 addresses'),
    only_remove_public_ips: z.boolean().default(true).describe('Tag only IPs Python deems global (multicast included)'),
    email_replacement: replacements(
      ['email@example.com', 'firstname.lastname@example.org'],
      'DataTrove email replacements, used in turn; they decide which IPs appear after emails are replaced, and name the email_<k> spans',
    ),
    ip_replacement: replacements(
      ['22.214.171.124', '126.96.36.199', '188.8.131.52', '184.108.40.206', '220.127.116.11', '18.104.22.168'],
      'DataTrove IP replacements, used in turn (they name the ip_<k> spans)',
    ),
    cycle_replacements: z
      .boolean()
      .default(false)
      .describe(
        'Type spans email_<k> / ip_<k>, k = the replacement DataTrove would use; its counter runs across documents in one tagger (one per worker), like DataTrove per task',
      ),
    profile: profileOption,
  })
  .strict();
export type PiiOptions = z.output<typeof piiOptions>;

interface Piece {
  /** Offset of this piece in the email-replaced text. */
  at: number;
  len: number;
  /** Offset in the original text, or -1 for an email replacement. */
  orig: number;
}

/** Spans for one document; `counters` carries DataTrove's `_replace_i` of both replacers between documents. */
export function piiSpans(text: string, o: PiiOptions, counters: { email: number; ip: number }): TagSpan[] {
  const spans: TagSpan[] = [];
  const type = (kind: 'email' | 'ip', k: number) => (o.cycle_replacements ? `${kind}_${k}` : kind);
  const pieces: Piece[] = [];
  let replaced = '';
  let pos = 0;
  const keep = (to: number) => {
    if (to > pos) pieces.push({ at: replaced.length, len: to - pos, orig: pos });
    replaced += text.slice(pos, to);
    pos = to;
  };
  if (o.remove_emails) {
    for (const [a, b] of findEmails(text, o.profile as Profile)) {
      keep(a);
      const k = counters.email;
      counters.email = (k + 1) % o.email_replacement.length;
      spans.push({ start: a, end: b, type: type('email', k), score: 1 });
      const r = o.email_replacement[k] as string;
      pieces.push({ at: replaced.length, len: r.length, orig: -1 });
      replaced += r;
      pos = b;
    }
  }
  keep(text.length);
  if (o.remove_ips) {
    let p = 0;
    for (const m of replaced.matchAll(IPV4)) {
      if (!ipAccepted(m[0], o.only_remove_public_ips)) continue;
      const k = counters.ip;
      counters.ip = (k + 1) % o.ip_replacement.length;
      const x = m.index;
      const y = x + m[0].length;
      while (p < pieces.length && (pieces[p] as Piece).at + (pieces[p] as Piece).len <= x) p++;
      const piece = pieces[p];
      // An IP that runs into an email replacement has no span in the original text (only possible when a
      // replacement string starts or ends with a digit or dot); DataTrove would still replace it.
      if (piece === undefined || piece.orig < 0 || y > piece.at + piece.len) continue;
      spans.push({ start: piece.orig + (x - piece.at), end: piece.orig + (y - piece.at), type: type('ip', k), score: 1 });
    }
  }
  return spans.sort((a, b) => a.start - b.start);
}

export const piiFormatter: TaggerSpec<PiiOptions> = {
  name: 'pii_formatter',
  description: "DataTrove PIIFormatter: email and public IPv4 spans to redact with span_replacement (FineWeb's last step)",
  outputs: [
    { type: 'email', description: 'An email address DataTrove replaces (email_<k> with cycle_replacements)', range: '1', level: 'spans' },
    { type: 'ip', description: 'An IPv4 address DataTrove replaces (ip_<k> with cycle_replacements)', range: '1', level: 'spans' },
  ],
  options: piiOptions,
  create(options) {
    const counters = { email: 0, ip: 0 };
    return { tag: (doc) => piiSpans(doc.text, options, counters) };
  },
};
