/**
 * The renderer's Content-Security-Policy: scripts only from the app itself, no inline script, no eval,
 * no plugins, no framing; the network only back to the app (the serve WebSocket).
 */
export function contentSecurityPolicy(connectSrc: string[] = []): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self'${connectSrc.map((s) => ` ${s}`).join('')}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
