// The host's index engine: the engine's PreviewEngine, opened on the workspace (it already has the shape the host serves).
import { PreviewEngine } from '../engine/index/index.js';
import type { SampleSpec } from '../engine/index/store/data.js';
import type { OpenEngine } from './index-service.js';
import { confiner } from './paths.js';

// Document text is read only from files whose real path is inside the workspace (a symlink may point anywhere).
export const openPreviewEngine: OpenEngine & ((root: string, sample?: SampleSpec) => PreviewEngine) = (root: string, sample?: SampleSpec) =>
  PreviewEngine.open(root, { checkPath: confiner(root), ...(sample && { sample }) });
