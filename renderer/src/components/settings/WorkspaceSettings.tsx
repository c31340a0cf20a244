// Workspace settings dialog: the environment variables a recipe's `${oc.env:NAME}` may read in the app (the allow-list).
import { useEffect, useRef, useState } from 'react';
import { parseEnvNames } from '../../lib/envNames.js';
import { useWorkbench, useWorkbenchApi } from '../../store/index.js';

export function WorkspaceSettingsButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button className="link" onClick={() => setOpen(true)} data-testid="settings-open" title="workspace settings: the environment variables recipes may read">
        settings
      </button>
      {open && <WorkspaceSettingsDialog onClose={() => setOpen(false)} />}
    </>
  );
}

function WorkspaceSettingsDialog({ onClose }: { onClose(): void }) {
  const store = useWorkbenchApi();
  const settings = useWorkbench((s) => s.workspace.settings);
  const error = useWorkbench((s) => s.workspace.settingsError);
  const [text, setText] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    dialog.current?.showModal();
    void store.getState().loadSettings();
  }, [store]);

  const shown = text ?? settings?.envAllowList.join('\n') ?? '';
  const { names, invalid } = parseEnvNames(shown);
  const save = async () => {
    setSaving(true);
    const ok = await store.getState().saveSettings(names);
    setSaving(false);
    if (ok) onClose();
  };

  return (
    <dialog ref={dialog} className="settings-dialog" onClose={onClose} data-testid="settings-dialog">
      <form
        method="dialog"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <h2>Workspace settings</h2>
        <label htmlFor="env-allow-list">
          <b>Environment variables recipes may read</b>
        </label>
        <p className="muted">
          A recipe can pull in environment variables with <code>{'${oc.env:NAME}'}</code>. Recipes often come from other people, so in the app a
          recipe reads only the variables named here; any other resolves as unset, and your tokens and keys never reach a recipe you did not
          write. One name per line. Stored in <code>.assay/settings.json</code>.
        </p>
        <textarea
          id="env-allow-list"
          rows={6}
          spellCheck={false}
          value={shown}
          disabled={settings === null && error === null}
          onChange={(e) => setText(e.target.value)}
          data-testid="settings-env"
          placeholder={'HOME\nDATA_ROOT'}
        />
        {invalid.length > 0 && (
          <div className="err" data-testid="settings-invalid">
            not a variable name (letters, digits and _, not starting with a digit): {invalid.join(', ')}
          </div>
        )}
        {error && (
          <div className="err" data-testid="settings-error">
            {error}
          </div>
        )}
        <div className="dialog-actions">
          <button type="button" onClick={onClose} data-testid="settings-cancel">
            Cancel
          </button>
          <button type="submit" className="primary" disabled={saving || invalid.length > 0 || settings === null} data-testid="settings-save">
            {saving ? 'saving…' : 'Save'}
          </button>
        </div>
      </form>
    </dialog>
  );
}
