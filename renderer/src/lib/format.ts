// Number, size, rate and duration formatting for a dense data UI.

const intFmt = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export function fmtInt(n: number): string {
  return intFmt.format(n);
}

/** 1234 → 1.2k, 5_600_000 → 5.6M; exact below 10,000. */
export function fmtCompact(n: number): string {
  const a = Math.abs(n);
  if (a < 10_000) return fmtInt(n);
  for (const [div, unit] of [[1e12, 'T'], [1e9, 'G'], [1e6, 'M'], [1e3, 'k']] as const) {
    if (a >= div) return `${(n / div).toFixed(a / div >= 100 ? 0 : 1)}${unit}`;
  }
  return fmtInt(n);
}

/** A share of a whole as a percentage; '–' when the whole is empty. */
export function fmtPct(part: number, whole: number): string {
  if (whole <= 0) return '–';
  const p = (100 * part) / whole;
  if (p === 0) return '0%';
  if (p < 0.1) return '<0.1%';
  return `${p.toFixed(p < 10 ? 1 : 0)}%`;
}

export function fmtBytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = n;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${i === 0 ? v : v.toFixed(v >= 100 ? 0 : 1)} ${units[i]}`;
}

/** Seconds as `45 s`, `3 min 05 s`, `2 h 07 min`. */
export function fmtDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '–';
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
}

/** An attribute value for a table cell or hover: numbers to 4 significant digits, others as JSON. */
export function fmtValue(v: unknown): string {
  if (v === undefined) return 'absent';
  if (typeof v === 'number') return Number.isInteger(v) ? fmtInt(v) : String(Number(v.toPrecision(4)));
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}
