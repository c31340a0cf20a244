// The workbench layout: workspace and preview on the left, the recipe editor with distributions/runs in the centre, documents and inspector on the right.
import { useEffect } from 'react';
import { useWorkbench } from '../store/index.js';
import { DeconTab } from './decon/DeconTab.js';
import { DistributionsTab } from './distributions/DistributionsTab.js';
import { DocumentsPanel } from './documents/DocumentsPanel.js';
import { RecipeEditor } from './editor/RecipeEditor.js';
import { RecipeToolbar } from './editor/RecipeToolbar.js';
import { Inspector } from './inspector/Inspector.js';
import { LedgerTab } from './ledger/LedgerTab.js';
import { PreviewPanel } from './preview/PreviewPanel.js';
import { RunsTab } from './runs/RunsTab.js';
import { TopBar } from './TopBar.js';
import { WorkspacePanel } from './workspace/WorkspacePanel.js';

export function App() {
  const tab = useWorkbench((s) => s.ui.bottomTab);
  const setTab = useWorkbench((s) => s.setBottomTab);
  const theme = useWorkbench((s) => s.ui.theme);
  const setSystemDark = useWorkbench((s) => s.setSystemDark);
  // The page's colours are CSS variables switched by data-theme; the system scheme is followed live.
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  useEffect(() => {
    const mq = window.matchMedia('(prefers-color-scheme: dark)');
    const on = (e: MediaQueryListEvent) => setSystemDark(e.matches);
    setSystemDark(mq.matches);
    mq.addEventListener('change', on);
    return () => mq.removeEventListener('change', on);
  }, [setSystemDark]);
  return (
    <div className="app">
      <TopBar />
      <aside className="pane left">
        <WorkspacePanel />
        <PreviewPanel />
      </aside>
      <main className="pane centre">
        <section className="editor-pane">
          <RecipeToolbar />
          <RecipeEditor />
        </section>
        <section className="bottom-pane">
          <nav className="tabs" role="tablist">
            <button role="tab" aria-selected={tab === 'distributions'} data-testid="tab-distributions" onClick={() => setTab('distributions')}>
              Distributions
            </button>
            <button role="tab" aria-selected={tab === 'ledger'} data-testid="tab-ledger" onClick={() => setTab('ledger')}>
              Token ledger
            </button>
            <button role="tab" aria-selected={tab === 'runs'} data-testid="tab-runs" onClick={() => setTab('runs')}>
              Runs
            </button>
            <button role="tab" aria-selected={tab === 'decon'} data-testid="tab-decon" onClick={() => setTab('decon')}>
              Contamination
            </button>
          </nav>
          <div className="tab-body">{tab === 'distributions' ? <DistributionsTab /> : tab === 'ledger' ? <LedgerTab /> : tab === 'decon' ? <DeconTab /> : <RunsTab />}</div>
        </section>
      </main>
      <section className="pane right">
        <DocumentsPanel />
        <Inspector />
      </section>
    </div>
  );
}
