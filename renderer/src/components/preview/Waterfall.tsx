// Waterfall of sequential drops (ECharts): documents entering the streams, each rule's bite (by its label), what is kept.
import { useCallback, useMemo } from 'react';
import type { PreviewResult } from '../../../../shared/contract/index.js';
import { fmtCompact, fmtInt } from '../../lib/format.js';
import { CHART_PALETTES } from '../../lib/theme.js';
import { isEstimate, tokenHeading } from '../../lib/tokens.js';
import { waterfallBars } from '../../lib/waterfall.js';
import { useWorkbench, useWorkbenchApi } from '../../store/index.js';
import { EChart, type EChartOption } from '../common/EChart.js';

/** Axis labels are cut to this many characters; the tooltip has the whole label and expression. */
const AXIS_LABEL_MAX = 22;

const escapeHtml = (s: string): string => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);

export function Waterfall({ result }: { result: PreviewResult }) {
  const measure = useWorkbench((s) => s.ui.measure);
  const setMeasure = useWorkbench((s) => s.setMeasure);
  const theme = useWorkbench((s) => s.ui.theme);
  const store = useWorkbenchApi();
  const bars = useMemo(() => waterfallBars(result, measure), [result, measure]);
  const unit = measure === 'tokens' ? tokenHeading(result.tokens.kind) : 'docs';
  const approx = measure === 'tokens' && isEstimate(result.tokens.kind) ? '≈' : '';

  const option = useMemo<EChartOption>(() => {
    const p = CHART_PALETTES[theme];
    const colours = { start: p.start, drop: p.drop, end: p.end } as const;
    return {
      animation: false,
      grid: { left: 48, right: 8, top: 8, bottom: 40 },
      tooltip: {
        trigger: 'axis',
        // Inside the chart: the pane would cut a tooltip that runs past its edge.
        confine: true,
        axisPointer: { type: 'shadow' },
        backgroundColor: p.tooltipBg,
        borderColor: p.grid,
        textStyle: { color: p.text, fontSize: 11 },
        extraCssText: 'max-width: 420px; white-space: normal; word-break: break-all;',
        formatter: (ps: { dataIndex: number }[]) => {
          const b = bars[ps[0]?.dataIndex ?? 0];
          if (!b) return '';
          const head = `${escapeHtml(b.label)}: ${b.kind === 'drop' ? '−' : ''}${approx}${fmtInt(b.value)} ${unit}`;
          return b.rule === undefined ? head : `${head}<br/><span style="opacity:.75">${escapeHtml(b.title)}</span>`;
        },
      },
      xAxis: {
        type: 'category',
        data: bars.map((b) => b.label),
        axisLine: { lineStyle: { color: p.muted } },
        axisLabel: { interval: 0, rotate: bars.length > 5 ? 35 : 0, fontSize: 10, color: p.muted, formatter: (v: string) => (v.length > AXIS_LABEL_MAX ? `${v.slice(0, AXIS_LABEL_MAX - 1)}…` : v) },
      },
      yAxis: { type: 'value', splitLine: { lineStyle: { color: p.grid } }, axisLabel: { fontSize: 10, color: p.muted, formatter: (v: number) => fmtCompact(v) } },
      series: [
        { type: 'bar', stack: 'w', silent: true, itemStyle: { color: 'transparent' }, data: bars.map((b) => b.base) },
        { type: 'bar', stack: 'w', data: bars.map((b) => ({ value: b.value, itemStyle: { color: colours[b.kind] } })) },
      ],
    };
  }, [bars, unit, approx, theme]);

  const onClick = useCallback(
    (i: number) => {
      const b = bars[i];
      if (b?.rule !== undefined) store.getState().setDocFilter({ fate: 'dropped', droppedBy: b.rule });
      else if (b?.kind === 'end') store.getState().setDocFilter({ fate: 'kept', droppedBy: undefined });
    },
    [bars, store],
  );

  return (
    <div className="waterfall">
      <div className="subhead">
        <span>Sequential drops</span>
        <span className="spacer" />
        <label>
          <input type="radio" checked={measure === 'docs'} onChange={() => setMeasure('docs')} /> docs
        </label>
        <label title={result.tokens.note}>
          <input type="radio" checked={measure === 'tokens'} onChange={() => setMeasure('tokens')} data-testid="waterfall-measure-tokens" /> {tokenHeading(result.tokens.kind)}
        </label>
      </div>
      <EChart option={option} onClick={onClick} className="chart" testId="waterfall" ariaLabel={`sequential drops (${unit}): ${bars.map((b) => `${b.label} ${b.kind === 'drop' ? '−' : ''}${approx}${fmtInt(b.value)}`).join('; ')}`} />
    </div>
  );
}
