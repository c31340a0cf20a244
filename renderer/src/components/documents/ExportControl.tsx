// Export of the documents table: every row matching the filters and search, ids only or with the table's columns, as CSV or JSONL.
import { useState } from 'react';
import { fmtBytes, fmtInt } from '../../lib/format.js';
import type { ExportFormat } from '../../store/documents.js';
import { useWorkbench, useWorkbenchApi } from '../../store/index.js';

const defaultPath = (format: ExportFormat): string => `exports/documents.${format}`;

export function ExportControl() {
  const store = useWorkbenchApi();
  const columns = useWorkbench((s) => s.documents.columns);
  const total = useWorkbench((s) => s.documents.total);
  const { running, result, error } = useWorkbench((s) => s.documents.export);
  const [format, setFormat] = useState<ExportFormat>('csv');
  const [path, setPath] = useState(defaultPath('csv'));
  const [withColumns, setWithColumns] = useState(true);

  const chooseFormat = (f: ExportFormat) => {
    setFormat(f);
    // Follow the format in the file name unless the user typed their own.
    if (path === defaultPath(format)) setPath(defaultPath(f));
    else if (path.endsWith(`.${format}`)) setPath(`${path.slice(0, -format.length)}${f}`);
  };
  const run = () => void store.getState().exportDocuments({ format, path: path.trim(), withColumns: withColumns && columns.length > 0 });

  return (
    <details className="export-control" data-testid="export-control">
      <summary title="write the table (every matching row) to a file in the workspace">export</summary>
      <div className="menu">
        <label>
          format{' '}
          <select value={format} onChange={(e) => chooseFormat(e.target.value as ExportFormat)} data-testid="export-format">
            <option value="csv">CSV</option>
            <option value="jsonl">JSONL</option>
          </select>
        </label>
        <label>
          <input type="radio" name="export-what" checked={!withColumns || columns.length === 0} onChange={() => setWithColumns(false)} data-testid="export-ids-only" /> ids only
        </label>
        <label title={columns.length === 0 ? 'choose attribute columns in the table first' : columns.join(', ')}>
          <input type="radio" name="export-what" checked={withColumns && columns.length > 0} disabled={columns.length === 0} onChange={() => setWithColumns(true)} data-testid="export-with-columns" /> ids with the
          table's {columns.length} attribute column{columns.length === 1 ? '' : 's'}
        </label>
        <label>
          file in the workspace{' '}
          <input className="path-input" value={path} onChange={(e) => setPath(e.target.value)} spellCheck={false} data-testid="export-path" />
        </label>
        <div className="row">
          <button className="primary" disabled={running || path.trim() === ''} onClick={run} data-testid="export-run">
            {running ? 'exporting…' : `export ${total === null ? '' : `${fmtInt(total)} `}rows`}
          </button>
        </div>
        {result && (
          <p className="ok-text" data-testid="export-result" data-path={result.path} data-rows={result.rows}>
            wrote {fmtInt(result.rows)} rows ({fmtBytes(result.bytes)}) to <code>{result.path}</code>
          </p>
        )}
        {error && (
          <p className="err" data-testid="export-error">
            {error}
          </p>
        )}
      </div>
    </details>
  );
}
