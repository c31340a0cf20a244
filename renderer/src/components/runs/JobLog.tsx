// The selected run's live log, following the tail while it is scrolled to the bottom.
import { useEffect, useRef } from 'react';
import { useWorkbench } from '../../store/index.js';

const NO_LINES: string[] = [];

export function JobLog() {
  const selected = useWorkbench((s) => s.runs.selected);
  const lines = useWorkbench((s) => (selected ? (s.runs.logs[selected] ?? NO_LINES) : NO_LINES));
  const box = useRef<HTMLPreElement>(null);
  const follow = useRef(true);

  useEffect(() => {
    const el = box.current;
    if (el && follow.current) el.scrollTop = el.scrollHeight;
  }, [lines]);

  if (!selected) return <p className="muted pad">Select a run to see its log.</p>;
  return (
    <pre
      ref={box}
      className="job-log"
      data-testid="job-log"
      onScroll={(e) => {
        const el = e.currentTarget;
        follow.current = el.scrollTop + el.clientHeight >= el.scrollHeight - 4;
      }}
    >
      {lines.length === 0 ? 'no log lines yet' : lines.join('\n')}
    </pre>
  );
}
