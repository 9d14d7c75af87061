import { resolve } from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import { contentSecurityPolicy } from './src-renderer/contentSecurityPolicy.js';

const root = import.meta.dirname;

// Native addons and the EVM's platform binary cannot be bundled; they load from node_modules at run time.
const nativeDeps = ['better-sqlite3', '@nomicfoundation/edr', '@nomicfoundation/edr-linux-x64-gnu'];

export default defineConfig({
  main: {
    build: {
      outDir: resolve(root, 'out/main'),
      externalizeDeps: { include: nativeDeps },
      // keyWorker: the utility process that holds the unlocked local key, started by index from the file beside it.
      rolldownOptions: {
        input: {
          index: resolve(root, 'src-main/index.ts'),
          keyWorker: resolve(root, 'src-main/signer/keyWorker/keyWorkerEntry.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: resolve(root, 'out/preload'),
      rolldownOptions: {
        input: { index: resolve(root, 'src-preload/index.ts') },
        // A sandboxed preload runs as a plain script with only require('electron'): it must be
        // CommonJS, and `.cjs` keeps Node from reading it as ESM under "type": "module".
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(root, 'src-renderer'),
    // The window loads the UI from the service's origin: deep pages (/token/0x…) need assets from the root.
    base: '/',
    plugins: [tailwindcss(), react(), contentSecurityPolicy()],
    // `npm run dev` serves the page from Vite's dev server: the service's own paths pass through it to the service, so
    // page and API share one origin there as in a build (the service grants no CORS). The Host header stays the page's
    // (changeOrigin off): the service takes writes only from a page whose origin matches the Host it is asked on.
    server: {
      proxy: Object.fromEntries(
        ['/api', '/media'].map((path) => [
          path,
          { target: `http://127.0.0.1:${process.env.PORT ?? 8787}`, changeOrigin: false },
        ]),
      ),
    },
    build: {
      outDir: resolve(root, 'out/renderer'),
      rolldownOptions: { input: resolve(root, 'src-renderer/index.html') },
    },
  },
});
