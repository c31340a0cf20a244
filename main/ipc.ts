// The two IPC channels between the preload bridge and main: one request/response channel, one event channel.
export const INVOKE_CHANNEL = 'assay:invoke';
export const EVENT_CHANNEL = 'assay:event';
