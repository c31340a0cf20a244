// A user's search (words, "a phrase", prefix*) as a safe FTS5 query: every term quoted, all of them required.
import { AssayError } from '../../errors.js';

export interface SearchTerm {
  text: string;
  kind: 'word' | 'phrase' | 'prefix';
}

/** A term can only match when it has a letter or digit (what unicode61 keeps as token characters). */
const WORDY = /[\p{L}\p{N}\p{Co}]/u;

/** Splits `q` into terms; a quote left open runs to the end. Operators (AND, OR, NEAR, -, :, ^) are plain words here. */
export function parseSearch(q: string): SearchTerm[] {
  const terms: SearchTerm[] = [];
  const re = /"([^"]*)"?|(\S+)/gu;
  for (let m = re.exec(q); m !== null; m = re.exec(q)) {
    if (m[1] !== undefined) {
      if (WORDY.test(m[1])) terms.push({ text: m[1], kind: 'phrase' });
      continue;
    }
    const w = m[2] as string;
    const prefix = w.endsWith('*');
    const body = w.replace(/\*+$/, '');
    if (WORDY.test(body)) terms.push({ text: body, kind: prefix ? 'prefix' : 'word' });
  }
  return terms;
}

/**
 * The FTS5 MATCH expression: each term a quoted string (FTS5 tokenizes inside the quotes, so `e-mail` is the
 * phrase `e mail`), a prefix term `"x"*`, juxtaposed = AND. Nothing the user types can reach FTS5's syntax.
 */
export function ftsQuery(q: string): string {
  const terms = parseSearch(q);
  if (terms.length === 0) throw new AssayError('CONFIG', `search ${JSON.stringify(q)} has no word to look for (letters or digits)`, { field: 'search' });
  return terms.map((t) => `"${t.text.replaceAll('"', '""')}"${t.kind === 'prefix' ? '*' : ''}`).join(' ');
}
