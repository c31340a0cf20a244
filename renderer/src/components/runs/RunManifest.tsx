// A run's manifest: stage, times, tool, config sha256 and seeds, totals per source, outputs, reports and inputs with hashes, and the chain of runs.
import type { RunManifestInfo } from '../../../../shared/contract/index.js';
import { fmtBytes, fmtDuration, fmtInt } from '../../lib/format.js';
import { useWorkbench, useWorkbenchApi } from '../../store/index.js';
import { CopyButton } from '../common/CopyButton.js';
import { RunChain } from './RunChain.js';

const when = (iso: string) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
};
const tokens = (t: RunManifestInfo['totals']['tokens']) => (t === null ? '–' : `${t.kind === 'estimate' ? '≈' : ''}${fmtInt(t.count)}`);
const Sha = ({ sha, testId }: { sha: string; testId?: string }) => (
  <code className="sha" title={sha} data-testid={testId} data-value={sha}>
    {sha.slice(0, 12)}
  </code>
);

export function RunManifest() {
  const view = useWorkbench((s) => s.runPage.manifest);
  const loading = useWorkbench((s) => s.runPage.loading);
  const error = useWorkbench((s) => s.runPage.error);
  const store = useWorkbenchApi();
  if (error) return <div className="error-box" data-testid="run-manifest-error">{error}</div>;
  if (!view) return <p className="muted pad">{loading ? 'reading the manifest…' : ''}</p>;
  const m = view.manifest;
  const sources = Object.entries(m.totals.bySource ?? {}).sort((a, b) => b[1].docs - a[1].docs);
  const compare = () => store.getState().setCompareTarget({ kind: 'run', path: view.folder });
  return (
    <div className="run-manifest" data-testid="run-manifest" data-stage={m.stage} data-folder={view.folder}>
      <p>
        <span className="badge" data-testid="run-manifest-stage">{m.stage}</span> <b>{view.folder}</b> · ended <span data-testid="run-manifest-ended">{when(m.run.ended)}</span> after {fmtDuration(m.run.elapsedSec)} · {m.run.status}
        {m.stage === 'mix' && (
          <button className="link" onClick={compare} data-testid="run-compare" title="compare the recipe in the editor with the recipe this run recorded (preview pane)">
            compare with this run’s recipe
          </button>
        )}
      </p>
      <p className="muted" data-testid="run-manifest-tool">
        {m.tool.name} {m.tool.version}
        {m.tool.commit ? ` (commit ${m.tool.commit.slice(0, 10)})` : ''} · node {m.tool.node} · {m.tool.host} · {m.tool.platform}
      </p>
      <p>
        config sha256 <Sha sha={m.configSha256} testId="run-manifest-config-sha" /> <CopyButton text={m.configSha256} what="config sha256" />
        {m.redacted.length > 0 && <span className="muted"> · redacted: {m.redacted.join(', ')}</span>}
        {Object.keys(m.seeds).length > 0 && <span> · seeds {Object.entries(m.seeds).map(([k, v]) => `${k}=${v}`).join(', ')}</span>}
        {' '}· manifest <Sha sha={view.sha256} />
      </p>
      <table className="grid" data-testid="run-manifest-totals">
        <thead>
          <tr><th>source</th><th className="num">docs</th><th className="num">tokens</th></tr>
        </thead>
        <tbody>
          <tr><td><b>all</b></td><td className="num" data-testid="run-manifest-docs" data-value={m.totals.docs}>{fmtInt(m.totals.docs)}</td><td className="num">{tokens(m.totals.tokens)}</td></tr>
          {sources.map(([src, c]) => (
            <tr key={src} data-testid={`run-manifest-source-${src}`} data-docs={c.docs}><td>{src || '(none)'}</td><td className="num">{fmtInt(c.docs)}</td><td className="num">{tokens(c.tokens)}</td></tr>
          ))}
        </tbody>
      </table>
      <RunChain chain={view.chain} />
      <Files title="outputs" testId="run-manifest-outputs" rows={m.outputs.map((o) => ({ path: o.path, role: o.role, size: o.size, sha: o.sha256, docs: o.docs }))} />
      {m.reports && m.reports.length > 0 && <Files title="reports written after the run" testId="run-manifest-reports" rows={m.reports.map((r) => ({ path: r.path, role: r.role, size: r.size, sha: r.sha256, docs: null }))} />}
      <Files title="inputs" testId="run-manifest-inputs" rows={m.inputs.map((i) => ({ path: i.path, role: i.role, size: i.size, sha: i.sha256, docs: null }))} />
    </div>
  );
}

function Files({ title, testId, rows }: { title: string; testId: string; rows: { path: string; role: string; size: number; sha: string; docs: number | null }[] }) {
  return (
    <details open={rows.length <= 12} data-testid={testId} data-count={rows.length}>
      <summary>{title} ({fmtInt(rows.length)})</summary>
      <table className="grid files">
        <thead>
          <tr><th>path</th><th>role</th><th className="num">size</th><th className="num">docs</th><th>sha256</th></tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={`${r.role}:${r.path}`} data-path={r.path}>
              <td className="path" title={r.path}>{r.path}</td><td>{r.role}</td><td className="num">{fmtBytes(r.size)}</td><td className="num">{r.docs === null ? '' : fmtInt(r.docs)}</td><td><Sha sha={r.sha} /></td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
