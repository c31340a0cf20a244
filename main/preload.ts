// The only bridge into the sandboxed page: `window.assay` with typed invoke/on (AssayApi) over two IPC channels, nothing else.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { AssayApi, EventEnvelope, EventName, Events, Method, Params, Result } from '../shared/contract/index.js';
import type { CallOutcome } from '../workers/host/client.js';
import { EVENT_CHANNEL, INVOKE_CHANNEL } from './ipc.js';

const api: AssayApi = {
  async invoke<M extends Method>(method: M, params: Params<M>): Promise<Result<M>> {
    const r = (await ipcRenderer.invoke(INVOKE_CHANNEL, method, params)) as CallOutcome;
    // A plain ErrorPayload crosses contextBridge intact; an Error would lose its code, file and line.
    if (!r.ok) throw r.error;
    return r.result as Result<M>;
  },
  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void {
    const handler = (_e: IpcRendererEvent, env: EventEnvelope): void => {
      if (env.event === event) listener(env.payload as Events[E]);
    };
    ipcRenderer.on(EVENT_CHANNEL, handler);
    return () => void ipcRenderer.removeListener(EVENT_CHANNEL, handler);
  },
};

contextBridge.exposeInMainWorld('assay', api);
