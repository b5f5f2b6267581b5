/**
 * A small static file server on 127.0.0.1 (a free port) over a built `dist/` folder, for the
 * command-line tools that drive a browser: `npm run bench` (which also collects `POST`ed
 * results) and `npm run screenshot`. No dependencies beyond Node.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, resolve } from 'node:path';

export const MIME: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

export interface StaticServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  close(): void;
}

export interface StaticServerOptions {
  /** Called with the body of a `POST` to `path` (answered 204). */
  onPost?: { path: string; handle: (body: string) => void };
}

/** Serves `dir` (GET; a folder serves its index.html) on a free port of 127.0.0.1. */
export function serveStatic(dir: string, options: StaticServerOptions = {}): Promise<StaticServer> {
  const root = resolve(dir);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'POST' && options.onPost && url.pathname === options.onPost.path) {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        res.writeHead(204).end();
        options.onPost!.handle(body);
      });
      return;
    }
    const path = normalize(join(root, decodeURIComponent(url.pathname)));
    if (!path.startsWith(root)) return void res.writeHead(403).end();
    try {
      const file = statSync(path).isDirectory() ? join(path, 'index.html') : path;
      res.writeHead(200, { 'content-type': MIME[extname(file)] ?? 'application/octet-stream' });
      res.end(readFileSync(file));
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (!address || typeof address === 'string') return fail(new Error('static server has no address'));
      done({ url: `http://127.0.0.1:${address.port}`, close: () => server.close() });
    });
  });
}
