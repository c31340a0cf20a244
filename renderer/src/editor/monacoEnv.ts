// Monaco's worker wiring for Vite (verified for 0.57 in specs/toolchain.md A.2); must run before Monaco loads.
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';

// Only the core editor worker: the recipe is YAML, which Monaco tokenises on the main thread, so the
// JSON/CSS/HTML/TS language workers are never asked for.
self.MonacoEnvironment = {
  getWorker() {
    return new EditorWorker();
  },
};
