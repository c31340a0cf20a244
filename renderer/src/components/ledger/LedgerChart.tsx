// The token ledger as stacked bars (ECharts): one bar per stage (raw → filtered → sampled → seen), one colour per source.
import { LegendComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { useMemo } from 'react';
import type { TokenLedgerResult } from '../../../../shared/contract/index.js';
import { fmtCompact, fmtInt } from '../../lib/format.js';
import { sourceName, stageSeries, STAGES, type LedgerMeasure } from '../../lib/ledger.js';
import { CHART_PALETTES } from '../../lib/theme.js';
import { isEstimate } from '../../lib/tokens.js';
import { useWorkbench } from '../../store/index.js';
import { EChart, type EChartOption } from '../common/EChart.js';

echarts.use([LegendComponent]);

/** Source colours, distinguishable in both themes (the canvas cannot read CSS variables). */
const SOURCE_COLOURS = {
  light: ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#9c755f'],
  dark: ['#6f9fd8', '#ffa64d', '#7cc36f', '#ff7b7d', '#8fd3cd', '#f5d86b', '#cf9bc4', '#c0987e'],
} as const;

export function LedgerChart({ result, measure }: { result: TokenLedgerResult; measure: LedgerMeasure }) {
  const theme = useWorkbench((s) => s.ui.theme);
  const series = useMemo(() => stageSeries(result, measure), [result, measure]);
  const approx = measure === 'tokens' && isEstimate(result.tokens.kind) ? '≈' : '';

  const option = useMemo<EChartOption>(() => {
    const p = CHART_PALETTES[theme];
    const colours = SOURCE_COLOURS[theme];
    return {
      animation: false,
      grid: { left: 52, right: 8, top: 26, bottom: 22 },
      legend: { top: 0, textStyle: { color: p.muted, fontSize: 10 }, itemWidth: 10, itemHeight: 8 },
      tooltip: {
        trigger: 'axis',
        confine: true,
        axisPointer: { type: 'shadow' },
        backgroundColor: p.tooltipBg,
        borderColor: p.grid,
        textStyle: { color: p.text, fontSize: 11 },
        valueFormatter: (v: number) => `${approx}${fmtInt(v)}`,
      },
      xAxis: { type: 'category', data: [...STAGES], axisLine: { lineStyle: { color: p.muted } }, axisLabel: { fontSize: 10, color: p.muted } },
      yAxis: { type: 'value', splitLine: { lineStyle: { color: p.grid } }, axisLabel: { fontSize: 10, color: p.muted, formatter: (v: number) => fmtCompact(v) } },
      series: series.map((s, i) => ({ type: 'bar', stack: 'ledger', name: sourceName(s.source), data: s.values, itemStyle: { color: colours[i % colours.length] } })),
    };
  }, [series, approx, theme]);

  const label = `token ledger (${measure}): ${STAGES.map((st) => `${st} ${series.map((s) => `${sourceName(s.source)} ${approx}${fmtInt(s.values[STAGES.indexOf(st)] ?? 0)}`).join(', ')}`).join('; ')}`;
  return <EChart option={option} className="chart" testId="ledger-chart" ariaLabel={label} />;
}
