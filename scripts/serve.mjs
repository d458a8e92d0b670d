#!/usr/bin/env node
// A static file server for www/ on 127.0.0.1 — no dependencies, no network beyond loopback.
//
//   node scripts/serve.mjs [--port 8080] [--base /some/sub/path/] [--root www]
//
// --base serves the page under a sub-path, as a course site would; --port 0 picks a free
// port. The first line printed is the URL.

import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

function option(args, name, fallback) {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
}

/** Starts the server; resolves to {server, url}. */
export function serve({ root, port = 8080, base = '/', host = '127.0.0.1' }) {
  const top = resolve(root);
  const prefix = base.endsWith('/') ? base : `${base}/`;
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    if (!path.startsWith(prefix)) {
      res.writeHead(404).end('not found');
      return;
    }
    let file = normalize(join(top, path.slice(prefix.length)));
    if (file !== top && !file.startsWith(top + sep)) {
      res.writeHead(403).end('forbidden');
      return;
    }
    try {
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      res.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-store',
      });
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(Number(port), host, () => {
      const url = `http://${host}:${server.address().port}${prefix}`;
      done({ server, url });
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const here = fileURLToPath(new URL('..', import.meta.url));
  const { url } = await serve({
    root: option(args, 'root', join(here, 'www')),
    port: option(args, 'port', process.env.PORT ?? 8080),
    base: option(args, 'base', '/'),
  });
  console.log(`RVM Lab is served at ${url}  (Ctrl-C stops it)`);
}
