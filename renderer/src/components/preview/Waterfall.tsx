// Waterfall of sequential drops (ECharts): documents entering the streams, each rule's bite, what is kept.
import { useCallback, useMemo } from 'react';
import type { PreviewResult } from '../../../../shared/contract/index.js';
import { fmtCompact, fmtInt } from '../../lib/format.js';
import { waterfallBars } from '../../lib/waterfall.js';
import { useWorkbench, useWorkbenchApi } from '../../store/index.js';
import { EChart, type EChartOption } from '../common/EChart.js';

const COLOURS = { start: '#7a8699', drop: '#d9534f', end: '#3c9d5d' } as const;

export function Waterfall({ result }: { result: PreviewResult }) {
  const measure = useWorkbench((s) => s.ui.measure);
  const setMeasure = useWorkbench((s) => s.setMeasure);
  const store = useWorkbenchApi();
  const bars = useMemo(() => waterfallBars(result, measure), [result, measure]);

  const option = useMemo<EChartOption>(
    () => ({
      animation: false,
      grid: { left: 48, right: 8, top: 8, bottom: 40 },
      tooltip: {
        trigger: 'axis',
        axisPointer: { type: 'shadow' },
        formatter: (ps: { dataIndex: number }[]) => {
          const b = bars[ps[0]?.dataIndex ?? 0];
          return b ? `${b.label}: ${b.kind === 'drop' ? '−' : ''}${fmtInt(b.value)} ${measure}` : '';
        },
      },
      xAxis: { type: 'category', data: bars.map((b) => b.label), axisLabel: { interval: 0, rotate: bars.length > 5 ? 35 : 0, fontSize: 10 } },
      yAxis: { type: 'value', axisLabel: { fontSize: 10, formatter: (v: number) => fmtCompact(v) } },
      series: [
        { type: 'bar', stack: 'w', silent: true, itemStyle: { color: 'transparent' }, data: bars.map((b) => b.base) },
        { type: 'bar', stack: 'w', data: bars.map((b) => ({ value: b.value, itemStyle: { color: COLOURS[b.kind] } })) },
      ],
    }),
    [bars, measure],
  );

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
        <label>
          <input type="radio" checked={measure === 'tokens'} onChange={() => setMeasure('tokens')} /> tokens
        </label>
      </div>
      <EChart option={option} onClick={onClick} className="chart" testId="waterfall" />
    </div>
  );
}
