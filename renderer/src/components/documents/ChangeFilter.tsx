// While comparing recipes: the table's fate-change filter (any change, or one kind) and the chip of a diff group listed from the preview.
import type { FateChange } from '../../../../shared/contract/index.js';
import { changeName, FATE_CHANGES, groupKey, sameGroup } from '../../lib/compare.js';
import { useWorkbench, useWorkbenchApi } from '../../store/index.js';

export function ChangeFilter() {
  const comparing = useWorkbench((s) => s.compare.target !== null);
  const byChange = useWorkbench((s) => s.compare.result?.byChange);
  const groups = useWorkbench((s) => s.compare.result?.groups);
  const change = useWorkbench((s) => s.documents.filter.change);
  const group = useWorkbench((s) => s.documents.filter.group);
  const store = useWorkbenchApi();
  if (!comparing) return null;
  // The kinds this comparison has, and the one chosen even when it has none now.
  const kinds = FATE_CHANGES.filter((k) => byChange?.[k] !== undefined || k === change);
  const shown = groups?.find((g) => sameGroup(group, groupKey(g)));
  return (
    <>
      <select
        value={change ?? ''}
        onChange={(e) => store.getState().setDocFilter({ change: e.target.value === '' ? undefined : (e.target.value as FateChange | 'any'), group: undefined })}
        data-testid="filter-change"
        aria-label="fate change"
        title="documents whose fate differs from the recipe compared with"
      >
        <option value="">changed or not</option>
        <option value="any">{changeName('any')}</option>
        {kinds.map((k) => (
          <option key={k} value={k}>
            {changeName(k)}
            {byChange?.[k] ? ` (${byChange[k].docs})` : ''}
          </option>
        ))}
      </select>
      {group && (
        <span className="chip" data-testid="change-group-chip" data-change={group.change} title="the documents of one group of the comparison">
          {group.stream}: {changeName(group.change)}
          {group.fromRule !== undefined ? ` from rule ${group.fromRule}` : ''}
          {group.toRule !== undefined ? ` to rule ${group.toRule}` : ''}
          {shown ? ` · ${shown.docs}` : ''}
          <button className="chip-x" onClick={() => store.getState().setDocFilter({ group: undefined })} aria-label="show all documents again" data-testid="change-group-chip-clear">
            ×
          </button>
        </span>
      )}
    </>
  );
}
