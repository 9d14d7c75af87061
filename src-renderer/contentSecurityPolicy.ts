import type { Plugin } from 'vite';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "connect-src 'self' http://127.0.0.1:*",
  "img-src 'self' data: http://127.0.0.1:*",
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
