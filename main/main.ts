// Electron main: one hardened window, the engine host in a supervised utilityProcess, the contract bridged over IPC (thin by design).
import { app, dialog, ipcMain, Menu, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { EventEnvelope } from '../shared/contract/index.js';
import { forkHost } from '../workers/host/launch-process.js';
import { HostSupervisor, type HostLauncher } from '../workers/host/supervisor.js';
import { appRoot } from './app-root.js';
import { INVOKE_CHANNEL, EVENT_CHANNEL } from './ipc.js';
import { MAX_DEPTH, valueTooDeep } from './message-bounds.js';
import { menuTemplate } from './menu.js';
import { utilityHost } from './utility-host.js';
import { APP_ORIGIN, createWindow, lockDown, registerScheme, serveRenderer } from './window.js';

const root = appRoot();
const rendererDir = join(root, 'dist', 'renderer');
const hostScript = join(root, 'dist', 'engine', 'host.js');
let host: HostSupervisor | null = null;
let win: BrowserWindow | null = null;

function workspaceArg(argv: readonly string[]): string | undefined {
  const i = argv.indexOf('--workspace');
  const v = i >= 0 ? argv[i + 1] : argv.find((a) => a.startsWith('--workspace='))?.slice('--workspace='.length);
  return v ?? process.env.ASSAY_WORKSPACE;
}

/**
 * better-sqlite3 and zstd-napi are compiled for the Node that ran `npm ci`; only a packaged build rebuilds them
 * for Electron (electron-builder's npmRebuild). So a development run hosts the engine in that Node
 * (`ASSAY_NODE`, set by `npm start`), and a packaged app in a utilityProcess.
 */
function hostLauncher(workspace: string): HostLauncher {
  if (app.isPackaged) return utilityHost(hostScript, workspace);
  return forkHost({ workspace, hostScript, execPath: process.env.ASSAY_NODE ?? 'node' });
}

async function openWorkspace(dir: string): Promise<void> {
  if (host) await host.close();
  host = new HostSupervisor(hostLauncher(resolve(dir)), { log: (m) => console.error(`assay: ${m}`) });
  host.onEvent((e: EventEnvelope) => win?.webContents.send(EVENT_CHANNEL, e));
  if (win) win.webContents.reload();
  else {
    win = createWindow(join(root, 'out', 'preload.cjs'), { devTools: !app.isPackaged });
    win.on('closed', () => (win = null));
  }
}

async function chooseWorkspace(): Promise<string | undefined> {
  const r = await dialog.showOpenDialog({ title: 'Open a dataset folder', properties: ['openDirectory'] });
  return r.canceled ? undefined : r.filePaths[0];
}

/** Only the app's own page may call the host; anything else (a navigated-away frame, a devtools extension) is refused. */
function fromApp(event: IpcMainInvokeEvent): boolean {
  return event.senderFrame?.url.startsWith(`${APP_ORIGIN}/`) ?? false;
}

registerScheme();
app.enableSandbox();
app.on('web-contents-created', (_e, contents) => lockDown(contents));
app.on('window-all-closed', () => app.quit());
app.on('before-quit', () => void host?.close());

void app.whenReady().then(async () => {
  if (!existsSync(join(rendererDir, 'index.html'))) {
    dialog.showErrorBox('Assay is not built', `The app was not found in ${rendererDir}.\nBuild it with: npx vite build --config renderer/vite.config.ts`);
    return app.quit();
  }
  if (!existsSync(hostScript)) {
    dialog.showErrorBox('Assay is not built', `The engine host was not found at ${hostScript}.\nBuild it with: npm run build`);
    return app.quit();
  }
  serveRenderer(rendererDir);
  ipcMain.handle(INVOKE_CHANNEL, async (event, method: unknown, params: unknown) => {
    if (!fromApp(event)) return { ok: false, error: { code: 'FORBIDDEN', message: 'not the app page' } };
    if (typeof method !== 'string') return { ok: false, error: { code: 'BAD_REQUEST', message: 'method must be a string' } };
    // The same bound as browser mode's: deep params would make the host transport's serializer throw.
    if (valueTooDeep(params)) return { ok: false, error: { code: 'BAD_REQUEST', message: `${method}: params nest deeper than ${MAX_DEPTH} levels` } };
    if (!host) return { ok: false, error: { code: 'INTERNAL', message: 'no workspace is open' } };
    return host.call(method, params);
  });
  Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate({ packaged: app.isPackaged, openFolder: () => void chooseWorkspace().then((d) => (d === undefined ? undefined : openWorkspace(d))) })));
  const dir = workspaceArg(process.argv) ?? (await chooseWorkspace());
  if (!dir) return app.quit();
  await openWorkspace(dir);
});
