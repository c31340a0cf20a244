// The application menu: File → Open Dataset Folder, Edit, View; developer tools only in development builds.
import type { MenuItemConstructorOptions } from 'electron';

export function menuTemplate(opts: { packaged: boolean; openFolder: () => void }): MenuItemConstructorOptions[] {
  const view: MenuItemConstructorOptions[] = [{ role: 'reload' }];
  // A packaged app has neither the item nor its shortcut (and its windows are created with devTools: false).
  if (!opts.packaged) view.push({ role: 'toggleDevTools' });
  view.push({ type: 'separator' }, { role: 'resetZoom' }, { role: 'zoomIn' }, { role: 'zoomOut' });
  return [
    { label: 'File', submenu: [{ label: 'Open Dataset Folder…', accelerator: 'CmdOrCtrl+O', click: opts.openFolder }, { role: 'quit' }] },
    { role: 'editMenu' },
    { label: 'View', submenu: view },
  ];
}
