// Recipe comparison helpers: the compare target (and its URL form), what the host is asked, group keys, and old → new text.
import type { CompareAgainst, DiffGroup, DiffGroupKey, DiffSide, DocumentChange, FateChange } from '../../../shared/contract/index.js';

/** What the edited recipe is compared with: the open file as saved, another workspace recipe, or a past mix run's output folder. */
export type CompareTarget = { kind: 'saved' } | { kind: 'recipe'; path: string } | { kind: 'run'; path: string };

export const FATE_CHANGES: readonly FateChange[] = ['kept→dropped', 'dropped→kept', 'rule changed', 'outside→kept', 'outside→dropped', 'kept→outside', 'dropped→outside'];

/** `saved`, `recipe:<path>` or `run:<folder>` (the select's value and the URL's `cmp`). */
export function encodeTarget(t: CompareTarget): string {
  return t.kind === 'saved' ? 'saved' : `${t.kind}:${t.path}`;
}

export function decodeTarget(v: string | null | undefined): CompareTarget | null {
  if (!v) return null;
  if (v === 'saved') return { kind: 'saved' };
  const at = v.indexOf(':');
  const kind = v.slice(0, at);
  const path = v.slice(at + 1);
  if (at < 0 || path === '' || (kind !== 'recipe' && kind !== 'run')) return null;
  return { kind, path };
}

export const sameTarget = (a: CompareTarget | null, b: CompareTarget | null): boolean => (a === null ? b === null : b !== null && encodeTarget(a) === encodeTarget(b));

/** The host's `against` for a target; `saved` sends the text the app holds as the file's. */
export function againstOf(t: CompareTarget, saved: { path: string | null; text: string }): CompareAgainst {
  if (t.kind === 'saved') return { text: saved.text, label: saved.path ? `${saved.path} as saved` : 'the saved version' };
  return t.kind === 'recipe' ? { recipe: t.path } : { run: t.path };
}

export function targetLabel(t: CompareTarget): string {
  return t.kind === 'saved' ? 'the saved version' : t.kind === 'recipe' ? t.path : `the run → ${t.path}`;
}

/** The key that lists one group's documents (`DocumentQuery.compare.group`). */
export function groupKey(g: DiffGroup): DiffGroupKey {
  return { stream: g.stream, change: g.change, ...(g.from.rule !== undefined && { fromRule: g.from.rule }), ...(g.to.rule !== undefined && { toRule: g.to.rule }) };
}

export const sameGroup = (a: DiffGroupKey | undefined, b: DiffGroupKey | undefined): boolean =>
  a !== undefined && b !== undefined && a.stream === b.stream && a.change === b.change && a.fromRule === b.fromRule && a.toRule === b.toRule;

/** `from|to|change|stream` (rules, or empty): numbers first, so any stream name round-trips. */
export function encodeGroup(g: DiffGroupKey): string {
  return `${g.fromRule ?? ''}|${g.toRule ?? ''}|${g.change}|${g.stream}`;
}

export function decodeGroup(v: string | null): DiffGroupKey | undefined {
  if (!v) return undefined;
  const parts = v.split('|');
  if (parts.length < 4) return undefined;
  const rule = (s: string | undefined): number | undefined | null => (s === undefined || s === '' ? undefined : /^\d+$/.test(s) ? Number(s) : null);
  const [from, to] = [rule(parts[0]), rule(parts[1])];
  const change = parts[2] as FateChange;
  const stream = parts.slice(3).join('|');
  if (from === null || to === null || !FATE_CHANGES.includes(change)) return undefined;
  return { stream, change, ...(from !== undefined && { fromRule: from }), ...(to !== undefined && { toRule: to }) };
}

/** One side of a change, short: `kept`, `outside`, `rule 3`. */
export const sideText = (s: DiffSide): string => (s.fate === 'dropped' ? (s.rule !== undefined ? `rule ${s.rule}` : 'dropped') : s.fate);

/** With the rule's label, for hovers and the group list: `rule 3 (word count < 50)`. */
export const sideLong = (s: DiffSide): string => (s.fate === 'dropped' && s.label ? `${sideText(s)} (${s.label})` : sideText(s));

export const changeText = (c: Pick<DocumentChange, 'from' | 'to'>): string => `${sideText(c.from)} → ${sideText(c.to)}`;

/** The change filter's words: `kept → dropped`, `dropped by another rule`. */
export const changeName = (c: FateChange | 'any'): string => (c === 'any' ? 'changed (any way)' : c === 'rule changed' ? 'dropped by another rule' : c.replace('→', ' → '));

/** Output folders of the mix runs that finished, newest first, once each: the past runs a recipe can be compared with. */
export function pastRunOutputs(jobs: readonly { kind: string; state: string; outputs: string[]; startedAt: string }[]): { path: string; startedAt: string }[] {
  const seen = new Set<string>();
  const out: { path: string; startedAt: string }[] = [];
  for (const j of [...jobs].sort((a, b) => (a.startedAt < b.startedAt ? 1 : -1))) {
    if (j.kind !== 'mix' || j.state !== 'done') continue;
    for (const path of j.outputs) {
      if (seen.has(path)) continue;
      seen.add(path);
      out.push({ path, startedAt: j.startedAt });
    }
  }
  return out;
}
