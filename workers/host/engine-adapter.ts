// The host's index engine: the engine's PreviewEngine, opened on the workspace (it already has the shape the host serves).
import { PreviewEngine } from '../engine/index/index.js';
import type { OpenEngine } from './index-service.js';

export const openPreviewEngine: OpenEngine = (root) => PreviewEngine.open(root);
