import type { Plugin } from 'vite';

/**
 * The page's policy. Images come only from the page's own server (its `/media`, where every logo is fetched, checked
 * and stored first) and from `data:` (the preview of a file being picked): no remote or loopback origin, so a launch
 * cannot make the page load from an address of the creator's choosing, nor probe this machine's ports.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "connect-src 'self' http://127.0.0.1:*",
  "img-src 'self' data:",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-src 'none'",
  "worker-src 'none'",
].join('; ');

/**
 * Adds the CSP meta tag to the built index.html. Build only: the dev server's React
 * Refresh preamble is an inline script that `script-src 'self'` would block. A meta tag travels with
 * the built page itself, whichever server (the service, or a static host) serves it.
 */
export function contentSecurityPolicy(): Plugin {
  return {
    name: 'companion:content-security-policy',
    apply: 'build',
    transformIndexHtml: () => [
      {
        tag: 'meta',
        attrs: { 'http-equiv': 'Content-Security-Policy', content: CONTENT_SECURITY_POLICY },
        injectTo: 'head-prepend',
      },
    ],
  };
}
