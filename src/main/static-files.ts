// Serving the built renderer from a folder, shared by the keydesk:// scheme and the harness. No Electron here.
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

export function contentType(file: string): string {
  return TYPES[extname(file)] ?? 'application/octet-stream';
}

/** Resolves a request path inside `root`, or null when it would leave it. */
export function resolveInside(root: string, pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  const file = normalize(join(root, decoded === '/' ? 'index.html' : decoded));
  return file.startsWith(root.endsWith(sep) ? root : root + sep) ? file : null;
}
