// The hardened app window: the renderer served from the app:// scheme with a strict CSP, sandboxed, no navigation, no new windows.
import { BrowserWindow, net, protocol, session } from 'electron';
import { pathToFileURL } from 'node:url';
import { APP_ORIGIN, SCHEME } from './lockdown.js';
import { contentSecurityPolicy } from './security.js';
import { lookupStatic } from './static.js';

export { APP_ORIGIN, lockDown, SCHEME } from './lockdown.js';

/** Electron's CSP: browser mode's, without the WebSocket (the bridge is IPC). */
export const ELECTRON_CSP = contentSecurityPolicy();

/** Must run before `app` is ready: app:// behaves like https (secure context, module workers, fetch). */
export function registerScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
}

/** Serves dist/renderer on app://assay/ (no traversal: main/static.ts) and puts the CSP on every response of the session. */
export function serveRenderer(rendererDir: string): void {
  protocol.handle(SCHEME, async (request) => {
    const url = new URL(request.url);
    if (url.host !== 'assay') return new Response('not found', { status: 404 });
    const found = lookupStatic(rendererDir, url.pathname);
    if (!found.ok) return new Response(String(found.status), { status: found.status });
    const res = await net.fetch(pathToFileURL(found.file).toString());
    return new Response(res.body, { status: 200, headers: { 'Content-Type': found.type, 'Content-Security-Policy': ELECTRON_CSP, 'X-Content-Type-Options': 'nosniff' } });
  });
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [ELECTRON_CSP], 'X-Content-Type-Options': ['nosniff'] } });
  });
  // The workbench needs no camera, microphone, notifications or geolocation.
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
}

/** `devTools` is false in a packaged app: no menu item, no shortcut, and webContents.openDevTools() does nothing. */
export function createWindow(preload: string, opts: { devTools: boolean }): BrowserWindow {
  const win = new BrowserWindow({
    width: 1440,
    height: 900,
    title: 'Assay',
    show: false,
    webPreferences: {
      preload,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      devTools: opts.devTools,
    },
  });
  win.once('ready-to-show', () => win.show());
  void win.loadURL(`${APP_ORIGIN}/index.html`);
  return win;
}
