// The subset of npm's semver ranges that package `engines` fields use, so a test can check that ours is true.

type Version = [number, number, number];

export function parseVersion(v: string): Version {
  const m = /^v?(\d+)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?/.exec(v.trim());
  if (!m) throw new Error(`not a version: '${v}'`);
  const n = (s: string | undefined): number => (s === undefined || s === 'x' || s === '*' ? 0 : Number(s));
  return [n(m[1]), n(m[2]), n(m[3])];
}

const cmp = (a: Version, b: Version): number => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** One comparator (`>=1.2.3`, `^20.19.0`, `20.x`, `*`, `1.2.3`) as a predicate. */
function comparator(token: string): (v: Version) => boolean {
  const t = token.trim();
  if (t === '' || t === '*' || t === 'x') return () => true;
  const m = /^(>=|<=|>|<|=|\^|~)?\s*(.+)$/.exec(t);
  if (!m) throw new Error(`unsupported range '${token}'`);
  const op = m[1] ?? '';
  const raw = m[2] ?? '';
  const parts = raw.split('.');
  const b = parseVersion(raw);
  switch (op) {
    case '>=':
      return (v) => cmp(v, b) >= 0;
    case '>':
      return (v) => cmp(v, b) > 0;
    case '<=':
      return (v) => cmp(v, b) <= 0;
    case '<':
      return (v) => cmp(v, b) < 0;
    case '^':
      return (v) => cmp(v, b) >= 0 && (b[0] > 0 ? v[0] === b[0] : b[1] > 0 ? v[0] === 0 && v[1] === b[1] : cmp(v, b) === 0);
    case '~':
      return (v) => cmp(v, b) >= 0 && v[0] === b[0] && (parts.length < 2 || v[1] === b[1]);
    default: {
      // A partial version (`20`, `20.x`) matches every version under it.
      const fixed = parts.filter((p) => p !== 'x' && p !== '*').length;
      return (v) => v.slice(0, fixed).every((x, i) => x === b[i]);
    }
  }
}

/** Whether `version` satisfies `range` (`||` of space-separated comparators, as in npm). */
export function satisfies(version: string, range: string): boolean {
  const v = parseVersion(version);
  return range.split('||').some((alt) => {
    const tokens = alt.trim().replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1').split(/\s+/);
    return tokens.every((t) => comparator(t)(v));
  });
}
