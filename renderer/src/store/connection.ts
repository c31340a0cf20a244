// Connection slice: the transport's status, and a full resync when a dropped connection comes back.
import type { ConnectionStatus } from '../api/index.js';
import { patcher, type SliceCreator } from './types.js';

export interface ConnectionState {
  status: ConnectionStatus;
  /** Times the connection came back after dropping (the host may have restarted meanwhile). */
  reconnects: number;
  /** The connection dropped since it was last open. */
  dropped: boolean;
}

export interface ConnectionSlice {
  connection: ConnectionState;
  setConnectionStatus(status: ConnectionStatus): void;
}

export const createConnectionSlice: SliceCreator<ConnectionSlice> = () => (set, get) => {
  const patch = patcher(set, get, 'connection');
  return {
    connection: { status: 'open', reconnects: 0, dropped: false },
    setConnectionStatus(status) {
      const prev = get().connection;
      if (prev.status === status) return;
      const back = status === 'open' && prev.dropped;
      patch({ status, reconnects: prev.reconnects + (back ? 1 : 0), dropped: (status === 'closed' && prev.status === 'open') || (prev.dropped && status !== 'open') });
      if (!back) return;
      // Events sent while we were away are lost: reload everything the host owns.
      void get().refreshWorkspace();
      void get().refreshJobs();
      void get().rewatchRecipe();
      // A change to the open file while we were away sent no event: look at the disk.
      void get().checkDisk();
      get().schedulePreview();
    },
  };
};
