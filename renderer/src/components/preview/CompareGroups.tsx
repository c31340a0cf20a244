// What a comparison found: documents whose fate changed, by kind, then each group (stream, from → to) with its sources; a click lists them.
import type { DiffGroup, FateChange, RecipeCompareResult } from '../../../../shared/contract/index.js';
import { changeName, groupKey, sameGroup, sideLong, sideText } from '../../lib/compare.js';
import { fmtInt } from '../../lib/format.js';
import { useWorkbench, useWorkbenchApi } from '../../store/index.js';
import { Fig } from '../common/Fig.js';

const sourcesText = (g: DiffGroup): [string, number][] => Object.entries(g.bySource).sort((a, b) => b[1].docs - a[1].docs).map(([s, c]) => [s, c.docs]);

export function CompareGroups({ result }: { result: RecipeCompareResult }) {
  const store = useWorkbenchApi();
  const group = useWorkbench((s) => s.documents.filter.group);
  const change = useWorkbench((s) => s.documents.filter.change);
  const streams = new Set(result.groups.map((g) => g.stream)).size;
  const kinds = Object.entries(result.byChange) as [FateChange, { docs: number }][];
  const { old: keptOld, new: keptNew } = result.kept;
  return (
    <div className="compare-result" data-testid="compare-result" title={`compared with ${result.baseline.label}`}>
      <p className="compare-summary">
        <button className={`link${change === 'any' ? ' current' : ''}`} onClick={() => store.getState().setDocFilter({ change: 'any' })} data-testid="compare-show-changed" title="list every changed document">
          <Fig value={result.changed.docs} exact testId="compare-changed" /> document{result.changed.docs === 1 ? '' : 's'} change fate
        </button>{' '}
        · kept <Fig value={keptOld.docs} exact testId="compare-kept-old" /> → <Fig value={keptNew.docs} exact testId="compare-kept-new" />
      </p>
      {kinds.length > 0 && (
        <p className="compare-kinds">
          {kinds.map(([k, c]) => (
            <button key={k} className={`link${change === k ? ' current' : ''}`} onClick={() => store.getState().setDocFilter({ change: k })} data-testid={`compare-kind-${k}`} data-value={c.docs}>
              {changeName(k)} {fmtInt(c.docs)}
            </button>
          ))}
        </p>
      )}
      {result.groups.length === 0 ? (
        <p className="muted" data-testid="compare-none">
          no document changes fate
        </p>
      ) : (
        <table className="grid compare-groups" data-testid="compare-groups">
          <thead>
            <tr>
              {streams > 1 && <th>stream</th>}
              <th>old → new</th>
              <th className="num">docs</th>
              <th>sources</th>
            </tr>
          </thead>
          <tbody>
            {result.groups.map((g, i) => (
              <tr
                key={`${g.stream}/${g.change}/${g.from.rule ?? ''}/${g.to.rule ?? ''}`}
                className={`clickable${sameGroup(group, groupKey(g)) ? ' selected' : ''}`}
                onClick={() => store.getState().showChangeGroup(g)}
                title={`${changeName(g.change)}: ${sideLong(g.from)} → ${sideLong(g.to)} — list these documents`}
                data-testid={`compare-group-${i}`}
                data-change={g.change}
                data-from={sideText(g.from)}
                data-to={sideText(g.to)}
                data-docs={g.docs}
              >
                {streams > 1 && <td>{g.stream}</td>}
                <td className="change">
                  <span className={`fate fate-${g.from.fate}`}>{sideText(g.from)}</span> → <span className={`fate fate-${g.to.fate}`}>{sideText(g.to)}</span>
                  {g.to.label && g.to.fate === 'dropped' && <span className="muted"> {g.to.label}</span>}
                </td>
                <td className="num">{fmtInt(g.docs)}</td>
                <td className="sources">
                  {sourcesText(g).map(([src, n]) => (
                    <button
                      key={src}
                      className="link"
                      onClick={(e) => {
                        e.stopPropagation();
                        store.getState().showChangeGroup(g, src);
                      }}
                      title={`list the ${src || '(none)'} documents of this group`}
                    >
                      {src || '(none)'} {fmtInt(n)}
                    </button>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
