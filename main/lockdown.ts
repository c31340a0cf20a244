// What every web contents of the app may not do: navigate away, redirect away, open windows, attach webviews (no electron runtime import, so tests can drive it).
import type { WebContents } from 'electron';

export const SCHEME = 'app';
export const APP_ORIGIN = `${SCHEME}://assay`;

const ours = (url: string): boolean => url.startsWith(`${APP_ORIGIN}/`);

/** Applied to every web contents the app ever creates (DESIGN §7). */
export function lockDown(contents: Pick<WebContents, 'on' | 'setWindowOpenHandler'>): void {
  contents.on('will-navigate', (event, url) => {
    if (!ours(url)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!ours(url)) event.preventDefault();
  });
  // will-navigate sees the main frame only: a subframe (an injected iframe) navigating anywhere is refused,
  // and so is the main frame leaving the app.
  contents.on('will-frame-navigate', (event) => {
    if (!(event.isMainFrame && ours(event.url))) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}
