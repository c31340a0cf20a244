// Create a config of one kind from a template: pick the starter, choose the file name, write it, hand the path on.
import { useEffect, useMemo, useState } from 'react';
import type { ConfigTemplate, JobKind } from '../../../../shared/contract/index.js';
import { useWorkbench, useWorkbenchApi } from '../../store/index.js';

const NO_TEMPLATES: ConfigTemplate[] = [];

export interface NewFromTemplateProps {
  kind: JobKind;
  /** The file was written (and the workspace refreshed). */
  onCreated(path: string): void;
  onCancel?(): void;
  /** `buttons`: one button per template (an empty workspace's starters); `select`: a compact picker. */
  layout?: 'buttons' | 'select';
  testId: string;
}

export function NewFromTemplate({ kind, onCreated, onCancel, layout = 'select', testId }: NewFromTemplateProps) {
  const store = useWorkbenchApi();
  const s = () => store.getState();
  const all = useWorkbench((st) => st.workspace.templates ?? NO_TEMPLATES);
  const loaded = useWorkbench((st) => st.workspace.templates !== null);
  const error = useWorkbench((st) => st.workspace.templatesError);
  const templates = useMemo(() => all.filter((t) => t.kind === kind), [all, kind]);
  const [chosen, setChosen] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!loaded) void store.getState().loadTemplates();
  }, [loaded, store]);

  const choose = async (id: string) => {
    setChosen(id);
    setName('');
    const suggested = await s().suggestTemplatePath(id);
    if (suggested) setName((n) => n || suggested);
  };
  const create = async () => {
    if (!chosen) return;
    setBusy(true);
    const path = await s().createFromTemplate(chosen, name);
    setBusy(false);
    if (path) {
      setChosen(null);
      onCreated(path);
    }
  };
  const picked = templates.find((t) => t.id === chosen);

  return (
    <div className="new-from-template" data-testid={testId}>
      {layout === 'buttons' ? (
        <div className="template-buttons">
          {templates.map((t) => (
            <button key={t.id} className={t.id === chosen ? 'chosen' : ''} onClick={() => void choose(t.id)} title={t.description} data-testid={`${testId}-template-${t.id}`}>
              <b>{t.title}</b>
              <span className="muted">{t.description}</span>
            </button>
          ))}
        </div>
      ) : (
        <select value={chosen ?? ''} onChange={(e) => e.target.value && void choose(e.target.value)} aria-label={`${kind} template`} data-testid={`${testId}-template`}>
          <option value="">{templates.length > 0 ? `new ${kind} config from…` : `no ${kind} templates`}</option>
          {templates.map((t) => (
            <option key={t.id} value={t.id} title={t.description}>
              {t.title}
            </option>
          ))}
        </select>
      )}
      {loaded && templates.length === 0 && layout === 'buttons' && <p className="muted">No starter of this kind for this workspace.</p>}
      {picked && (
        <form
          className="template-name"
          onSubmit={(e) => {
            e.preventDefault();
            void create();
          }}
        >
          <label>
            save {picked.title} as{' '}
            <input value={name} onChange={(e) => setName(e.target.value)} className="path-input" spellCheck={false} aria-label="file name inside the workspace" data-testid={`${testId}-name`} />
          </label>
          <button type="submit" className="primary" disabled={busy || !name.trim()} data-testid={`${testId}-create`}>
            {busy ? 'creating…' : 'Create'}
          </button>
          <button type="button" className="link" onClick={() => (setChosen(null), onCancel?.())}>
            cancel
          </button>
        </form>
      )}
      {error && (
        <div className="err" data-testid={`${testId}-error`}>
          {error}
        </div>
      )}
    </div>
  );
}
