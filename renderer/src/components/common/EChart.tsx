// A modular ECharts instance in a div: created once, options replaced on change, resized with its box.
import { BarChart } from 'echarts/charts';
import { GridComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

echarts.use([BarChart, GridComponent, TooltipComponent, CanvasRenderer]);

export type EChartOption = echarts.EChartsCoreOption;

export interface EChartProps {
  /** Colours come in the option (from the theme's chart palette): the canvas cannot read CSS variables. */
  option: EChartOption;
  onClick?: (dataIndex: number) => void;
  className?: string;
  testId?: string;
  /** What the chart shows, in words: a canvas has no text for assistive technology (or tests) to read. */
  ariaLabel?: string;
}

export function EChart({ option, onClick, className, testId, ariaLabel }: EChartProps) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);

  useEffect(() => {
    const node = el.current;
    if (!node) return;
    const c = echarts.init(node, undefined, { renderer: 'canvas' });
    chart.current = c;
    const ro = new ResizeObserver(() => c.resize());
    ro.observe(node);
    return () => {
      ro.disconnect();
      c.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(option, true);
  }, [option]);

  useEffect(() => {
    const c = chart.current;
    if (!c || !onClick) return;
    const handler = (p: { dataIndex?: number }) => {
      if (typeof p.dataIndex === 'number') onClick(p.dataIndex);
    };
    c.on('click', handler);
    return () => {
      c.off('click', handler);
    };
  }, [onClick]);

  return <div ref={el} className={className} data-testid={testId} role="img" aria-label={ariaLabel} />;
}
