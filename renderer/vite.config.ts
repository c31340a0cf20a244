// Vite build of the renderer: relative asset URLs (file:// in Electron, any port in browser mode), Monaco's ES workers.
import { defineConfig, loadEnv } from 'vite';
import react from '@vitejs/plugin-react';

const here = decodeURIComponent(new URL('.', import.meta.url).pathname);

export default defineConfig(({ mode }) => {
  // `ASSAY_HOST=http://127.0.0.1:PORT npx vite --config renderer/vite.config.ts` develops against a running
  // `assay serve`: the page's /ws is proxied there (open the dev page with that server's ?token=…).
  const host = loadEnv(mode, here, 'ASSAY_').ASSAY_HOST;
  return {
    root: here,
    base: './',
    plugins: [react()],
    worker: { format: 'es' },
    // The host refuses a foreign Origin, so the proxy presents the host's own.
    server: host ? { proxy: { '/ws': { target: host, ws: true, changeOrigin: true, headers: { origin: host } } } } : {},
    build: {
      outDir: '../dist/renderer',
      // outDir lies outside root; without this Vite leaves stale hashed chunks behind.
      emptyOutDir: true,
      // Monaco's editor core is one large lazily loaded chunk by nature.
      chunkSizeWarningLimit: 8000,
    },
  };
});
