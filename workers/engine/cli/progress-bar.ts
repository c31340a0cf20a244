// Terminal progress: a redrawn bar on a TTY, a plain line every few seconds otherwise.
import type { ProgressReport } from '../jobs/progress.js';

export function formatBytes(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)} GB`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} MB`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)} kB`;
  // Rates arrive as fractions: 348.70238 B/s is shown as 349 B.
  return `${Math.round(n)} B`;
}

export function formatDuration(sec: number | null): string {
  if (sec === null || !Number.isFinite(sec)) return '--:--';
  const s = Math.round(sec);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

export function progressLine(p: ProgressReport, width = 24): string {
  const frac = p.total > 0 ? Math.min(1, p.done / p.total) : 0;
  const filled = Math.round(frac * width);
  const bar = '█'.repeat(filled) + '░'.repeat(width - filled);
  return (
    `${p.stage} ${bar} ${(frac * 100).toFixed(0).padStart(3)}% · files ${p.filesDone}/${p.filesTotal} · ` +
    `${p.docs.toLocaleString('en-US')} docs · ${formatBytes(p.bytes)} · ${formatBytes(p.bytesPerSec)}/s · ETA ${formatDuration(p.etaSec)}`
  );
}

/** `line` formats a report (a stage can add its own rate, e.g. pages/s). */
export function createProgressPrinter(stream: NodeJS.WriteStream, quiet: boolean, line: (p: ProgressReport) => string = progressLine): { update: (p: ProgressReport) => void; done: () => void } {
  if (quiet) return { update: () => undefined, done: () => undefined };
  if (stream.isTTY) {
    let drawn = false;
    return {
      update: (p) => {
        stream.write(`\r\x1b[2K${line(p).slice(0, (stream.columns || 120) - 1)}`);
        drawn = true;
      },
      done: () => void (drawn && stream.write('\n')),
    };
  }
  // Logs (CI, pipes) get a line every 5 s, and nothing for runs that end sooner.
  let last = Date.now();
  return {
    update: (p) => {
      const now = Date.now();
      if (now - last < 5000) return;
      last = now;
      stream.write(line(p) + '\n');
    },
    done: () => undefined,
  };
}
