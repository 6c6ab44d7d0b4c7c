import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The renderer is served by the ledger server itself (same origin, `renderer/dist`), so the build
 * needs nothing but React's automatic JSX runtime, which Vite's own transform (oxc) provides.
 * `vite dev` proxies /api to a running `npm run serve`; the proxy drops the dev page's Origin
 * header, because the server refuses foreign origins (CONTRACT §1).
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // recharts is most of the bundle; one chunk is fine for a local desktop app
    chunkSizeWarningLimit: 1500,
  },
  server: {
    proxy: {
      '/api': {
        target: process.env.LEDGER_URL ?? 'http://127.0.0.1:4599',
        changeOrigin: true,
        configure: (proxy) => {
          proxy.on('proxyReq', (request) => request.removeHeader('origin'));
        },
      },
    },
  },
});
