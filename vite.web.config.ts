import { resolve } from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { contentSecurityPolicy } from './src-renderer/contentSecurityPolicy.js';

const root = import.meta.dirname;

// The Electron renderer built as a plain web app, served at `/` by the headless server.
export default defineConfig({
  root: resolve(root, 'src-renderer'),
  // Absolute: pages two levels deep (/token/0x…) load their assets from the root, not from /token/assets.
  base: '/',
  plugins: [tailwindcss(), react(), contentSecurityPolicy()],
  build: {
    outDir: resolve(root, 'out/web'),
    emptyOutDir: true,
  },
});
