// Renderer entry: connect to the host, build the store, restore the URL's view and render the workbench.
import './styles.css';
import './editor.css';
import { createRoot } from 'react-dom/client';
import { connect } from './api/index.js';
import { App } from './components/App.js';
import { decodeUrlState } from './lib/urlState.js';
import { createWorkbenchStore, initWorkbench, wireEvents } from './store/create.js';
import { WorkbenchProvider } from './store/index.js';
import { startUrlSync } from './urlSync.js';

const conn = connect();
const store = createWorkbenchStore(conn.api);
store.getState().setConnectionStatus(conn.status());
conn.onStatus((s) => store.getState().setConnectionStatus(s));
wireEvents(store, conn.api);

// The e2e hook reads and writes the store's recipe text, which the Monaco model mirrors both ways.
window.__assayEditor = {
  getValue: () => store.getState().recipe.text,
  setValue: (text: string) => store.getState().setRecipeText(text),
};

void initWorkbench(store, decodeUrlState(window.location.hash)).finally(() => startUrlSync(store, window));
// Back from another editor or a terminal: the recipe file may have changed on disk.
window.addEventListener('focus', () => void store.getState().checkDisk());

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <WorkbenchProvider store={store}>
      <App />
    </WorkbenchProvider>,
  );
}
