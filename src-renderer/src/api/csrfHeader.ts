/**
 * Sent with every request these pages make to the service, reads included. Once the browser is signed in, its session
 * cookie goes with every request to the service, which refuses any request carrying the cookie without this header
 * (CSRF_REQUIRED), because a page on another site cannot set it. Sent when not signed in, it changes nothing.
 */
export const CSRF_HEADER: Readonly<Record<string, string>> = { 'x-mm-csrf': '1' };
