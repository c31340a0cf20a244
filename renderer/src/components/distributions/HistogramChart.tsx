// SVG histogram of one attribute, with the rule's drop curve and its threshold as a draggable handle (or a tagger's fixed line); bars filter the table.
import { useEffect, useRef, useState, type PointerEvent } from 'react';
import type { Histogram, ThresholdSweep } from '../../../../shared/contract/index.js';
import { fmtInt, fmtValue } from '../../lib/format.js';
import { interpolate, linear, ticks } from '../../lib/scale.js';
import { formatThreshold, niceStep } from '../../lib/yamlNumber.js';

const H = 190;
const M = { left: 44, right: 40, top: 10, bottom: 24 };

export interface HistogramChartProps {
  histogram: Histogram;
  sweep: ThresholdSweep | null;
  /** The threshold as the editor text has it now. */
  threshold: number | null;
  /** A threshold the recipe cannot move (a tagger's sub-rule test): drawn dashed, not draggable. */
  fixed?: { value: number; op?: string | undefined } | null;
  /** Bins covered by the document table's range filter on this key. */
  activeRange: { min?: number; max?: number } | null;
  onBarClick(bin: number): void;
  /** A new threshold literal while dragging (only when it changes). */
  onDrag(literal: string): void;
}

function useWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(600);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setWidth(Math.max(240, el.clientWidth)));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return { ref, width };
}

/** Whether a value fails a tagger's test `value op threshold` (the side the flag drops). */
function fails(t: { value: number; op?: string | undefined }, v: number): boolean {
  switch (t.op) {
    case '>': return v > t.value;
    case '>=': return v >= t.value;
    case '<': return v < t.value;
    case '<=': return v <= t.value;
    default: return false;
  }
}

/** A constant attribute (every value 1, say) still gets an axis the handle can move along. */
function widen(lo: number, hi: number): [number, number] {
  if (hi - lo > 1e-9) return [lo, hi];
  const pad = Math.max(1, Math.abs(lo));
  return [lo - pad, hi + pad];
}

export function HistogramChart({ histogram: h, sweep, threshold, fixed = null, activeRange, onBarClick, onDrag }: HistogramChartProps) {
  const { ref, width } = useWidth();
  // The axis is frozen while dragging, or the scale would shift under the pointer as the threshold moves.
  const dragging = useRef<{ last: string; domain: [number, number] } | null>(null);
  const lo0 = h.edges[0] ?? h.min;
  const hi0 = h.edges[h.edges.length - 1] ?? h.max;
  // The axis spans the data, the sweep's candidates and the current threshold, so the handle is always on the chart.
  const extra = [...(sweep?.thresholds ?? []), ...(threshold !== null ? [threshold] : []), ...(fixed ? [fixed.value] : [])];
  const [lo, hi] = dragging.current?.domain ?? widen(Math.min(lo0, ...extra), Math.max(hi0, ...extra));
  const x = linear([lo, hi], [M.left, width - M.right]);
  const maxCount = Math.max(1, ...h.counts);
  const y = linear([0, maxCount], [H - M.bottom, M.top]);
  const yFrac = linear([0, 1], [H - M.bottom, M.top]);
  const step = niceStep(hi - lo);
  // Which side of the threshold drops: read off the sweep (it rises with the threshold for `<` excludes, falls for `>`).
  const fr = sweep?.dropFraction ?? [];
  const dropsBelow = fr.length > 1 ? (fr[fr.length - 1] as number) >= (fr[0] as number) : null;
  const dropAt = sweep && threshold !== null ? interpolate(sweep.thresholds, sweep.dropFraction, threshold) : null;

  const toLiteral = (clientX: number, svg: SVGSVGElement): string => {
    const box = svg.getBoundingClientRect();
    const v = x.invert(Math.min(Math.max(clientX - box.left, M.left), width - M.right));
    return formatThreshold(v, step);
  };
  const onDown = (e: PointerEvent<SVGRectElement>) => {
    e.currentTarget.setPointerCapture(e.pointerId);
    dragging.current = { last: threshold === null ? '' : formatThreshold(threshold, step), domain: [lo, hi] };
  };
  const onMove = (e: PointerEvent<SVGRectElement>) => {
    const svg = e.currentTarget.ownerSVGElement;
    if (!dragging.current || !svg) return;
    const lit = toLiteral(e.clientX, svg);
    if (lit !== dragging.current.last) {
      dragging.current.last = lit;
      onDrag(lit);
    }
  };
  const onUp = (e: PointerEvent<SVGRectElement>) => {
    e.currentTarget.releasePointerCapture(e.pointerId);
    dragging.current = null;
  };

  const inRange = (i: number) => activeRange !== null && (activeRange.min ?? -Infinity) <= (h.edges[i] as number) && (h.edges[i + 1] as number) <= (activeRange.max ?? Infinity);
  const tx = threshold !== null ? x(threshold) : null;

  return (
    <div ref={ref} className="histogram" data-testid="histogram" data-key={h.key}>
      <svg width={width} height={H} role="img" aria-label={`histogram of ${h.key}`}>
        {ticks(0, maxCount, 4).map((t) => (
          <g key={`y${t}`}>
            <line x1={M.left} x2={width - M.right} y1={y(t)} y2={y(t)} className="gridline" />
            <text x={M.left - 4} y={y(t) + 3} className="tick" textAnchor="end">
              {fmtInt(t)}
            </text>
          </g>
        ))}
        {ticks(lo, hi, Math.max(3, Math.floor(width / 90))).map((t) => (
          <text key={`x${t}`} x={x(t)} y={H - 8} className="tick" textAnchor="middle">
            {fmtValue(t)}
          </text>
        ))}
        {h.counts.map((c, i) => {
          const x0 = x(h.edges[i] as number);
          const x1 = x(h.edges[i + 1] as number);
          const mid = ((h.edges[i] as number) + (h.edges[i + 1] as number)) / 2;
          const dropped = (threshold !== null && dropsBelow !== null && (dropsBelow ? mid < threshold : mid > threshold)) || (fixed !== null && fails(fixed, mid));
          return (
            <rect
              key={i}
              x={x0 + 0.5}
              y={y(c)}
              width={Math.max(1, x1 - x0 - 1)}
              height={Math.max(0, y(0) - y(c))}
              className={`bar${dropped ? ' dropped' : ''}${inRange(i) ? ' active' : ''}`}
              onClick={() => onBarClick(i)}
              data-testid={`histogram-bar-${i}`}
            >
              <title>{`[${fmtValue(h.edges[i])}, ${fmtValue(h.edges[i + 1])}): ${fmtInt(c)} documents — click to list them`}</title>
            </rect>
          );
        })}
        {sweep && (
          <>
            <polyline className="sweep" points={sweep.thresholds.map((t, i) => `${x(t)},${yFrac(sweep.dropFraction[i] ?? 0)}`).join(' ')} data-testid="sweep-curve" />
            {[0, 0.5, 1].map((f) => (
              <text key={`f${f}`} x={width - M.right + 4} y={yFrac(f) + 3} className="tick sweep-tick">
                {f * 100}%
              </text>
            ))}
          </>
        )}
        {fixed && (
          <g className="fixed-threshold" data-testid="histogram-fixed-threshold" data-value={fixed.value}>
            <line x1={x(fixed.value)} x2={x(fixed.value)} y1={M.top - 4} y2={H - M.bottom} />
            <text x={Math.min(x(fixed.value) + 4, width - M.right - 90)} y={M.top + 8} className="threshold-label">
              tagger: {fixed.op ?? ''} {fmtValue(fixed.value)}
            </text>
            <title>the tagger’s threshold: fixed (no recipe rule compares this value)</title>
          </g>
        )}
        {tx !== null && (
          <g className="threshold">
            <line x1={tx} x2={tx} y1={M.top - 4} y2={H - M.bottom} />
            <text x={Math.min(tx + 4, width - M.right - 60)} y={M.top + 8} className="threshold-label">
              {sweep?.op} {fmtValue(threshold)}
              {dropAt !== null ? ` · drops ${(dropAt * 100).toFixed(1)}%` : ''}
            </text>
            <rect
              x={tx - 6}
              y={M.top - 4}
              width={12}
              height={H - M.bottom - M.top + 4}
              className="handle"
              data-testid="histogram-threshold-handle"
              data-value={threshold ?? undefined}
              onPointerDown={onDown}
              onPointerMove={onMove}
              onPointerUp={onUp}
            >
              <title>drag to change the threshold in the recipe</title>
            </rect>
          </g>
        )}
      </svg>
    </div>
  );
}
