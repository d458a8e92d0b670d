#!/usr/bin/env node
// A static file server for www/ on 127.0.0.1 — no dependencies, no network beyond loopback.
//
//   node scripts/serve.mjs [--port 8080] [--base /some/sub/path/] [--root www] [--plain]
//
// --base serves the page under a sub-path, as a course site would; --port 0 picks a free
// port; --plain sends no Content-Security-Policy. The first line printed is the URL.
//
// Each file goes out as its precompressed sibling when the browser accepts it (brotli, then
// gzip; `scripts/compress.mjs` writes them at build time) and the sibling is not older than
// the file, else as it is. Every response carries an ETag and Last-Modified and `no-cache`:
// a reload asks again and gets "304 Not Modified" for what it has, so a class on one Wi-Fi
// fetches the 600 KB module once per student, compressed to a third.
//
// Every page goes out under a strict Content-Security-Policy (STRICT_POLICY: scripts, styles
// and everything else from this host only, WebAssembly allowed, nothing inline), as a careful
// host would send it; a page that declares its own policy in a <meta> (the single file,
// rvm-lab.html, whose inline script and style are allowed by their hashes) is sent under that
// one. `policy: null` serves as a plain static host does, with no such header.
//
// A request over 16 KB (a permalink holding thousands of points) gets a 414 or 431 page that
// says what to do, not a dropped connection.

import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMPRESSIBLE, ENCODINGS, isFresh } from './compress.mjs';

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
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** The policy of the lab's pages, and the strictest they run under: nothing inline, nothing
 *  from another host, WebAssembly compiled ('wasm-unsafe-eval'), images also from data: and
 *  blob: URLs (the legend's marks, exported files), no plugins, no <base>. */
export const STRICT_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "object-src 'none'",
  "base-uri 'none'",
].join('; ');

/** The policy an HTML page declares in its own <meta http-equiv="Content-Security-Policy">, or
 *  null. */
export function declaredPolicy(html) {
  const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/i.exec(html);
  return meta ? meta[1] : null;
}

/** The q-value `accept` (an Accept-Encoding header) gives `coding`: 0 when it is refused or
 *  absent, `*` standing for any coding not named (RFC 9110 §12.5.3). */
export function quality(accept, coding) {
  let any = 0;
  for (const part of (accept ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = q ? Number(q.slice(2)) || 0 : 1;
    if (name === coding) return value;
    if (name === '*') any = value;
  }
  return any;
}

/** What to send for `file` (its `stat`) to a browser accepting `accept`: the path, its stat
 *  and the content-encoding (undefined: the file as it is). */
async function representation(file, info, accept) {
  if (!COMPRESSIBLE.has(extname(file))) return { path: file, info };
  for (const { name, suffix } of ENCODINGS) {
    if (quality(accept, name) <= 0) continue;
    const sibling = await stat(file + suffix).catch(() => null);
    if (sibling?.isFile() && isFresh(info, sibling)) return { path: file + suffix, info: sibling, encoding: name };
  }
  return { path: file, info };
}

/** Whether the browser's copy (If-None-Match, else If-Modified-Since) is still good. */
function unchanged(req, etag, modified) {
  const match = req.headers['if-none-match'];
  if (match) return match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
  const since = Date.parse(req.headers['if-modified-since'] ?? '');
  return Number.isFinite(since) && Math.floor(modified / 1000) * 1000 <= since;
}

function option(args, name, fallback) {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
}

/** The most bytes of request line and headers a request may have (Node's default). */
export const MAX_HEADER_BYTES = 16 * 1024;

/**
 * The answer to a request too long to read (a permalink holding thousands of points): "414
 * URI Too Long" when the request line alone overflows, else "431 Request Header Fields Too
 * Large", with a page saying what to do, instead of a dropped connection.
 */
export function tooLong(rawPacket) {
  const packet = rawPacket ?? Buffer.alloc(0);
  const lineEnd = packet.indexOf('\r\n');
  const [status, reason] = lineEnd < 0 || lineEnd > MAX_HEADER_BYTES / 2 ? [414, 'URI Too Long'] : [431, 'Request Header Fields Too Large'];
  const body = `<!doctype html><meta charset="utf-8"><title>${status} ${reason}</title>
<h1>${status}: this link is too long for the server</h1>
<p>The request is over ${MAX_HEADER_BYTES / 1024} KB. A permalink holding many data points can outgrow what servers
accept: open the lab without it, load the data with “Data as CSV” (“Save data as CSV” writes that file), or
start this server with a larger limit: <code>node --max-http-header-size=65536 scripts/serve.mjs</code>.</p>
<p lang="zh-CN">链接过长（超过 ${MAX_HEADER_BYTES / 1024} KB），服务器无法读取。含大量数据点的永久链接可能超出服务器的限制：
请不带该链接打开实验室，用“以 CSV 导入数据”载入数据（“将数据保存为 CSV”可导出该文件），或以更大的限制启动本服务器。</p>`;
  const bytes = Buffer.byteLength(body);
  return `HTTP/1.1 ${status} ${reason}\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: ${bytes}\r\nConnection: close\r\n\r\n${body}`;
}

/** Starts the server; resolves to {server, url}. */
export function serve({ root, port = 8080, base = '/', host = '127.0.0.1', policy = STRICT_POLICY }) {
  const top = resolve(root);
  const prefix = base.endsWith('/') ? base : `${base}/`;
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, async (req, res) => {
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
      let info = await stat(file);
      if (info.isDirectory()) {
        file = join(file, 'index.html');
        info = await stat(file);
      }
      const sent = await representation(file, info, req.headers['accept-encoding']);
      const etag = `"${sent.info.size.toString(36)}-${Math.floor(sent.info.mtimeMs).toString(36)}${sent.encoding ? `-${sent.encoding}` : ''}"`;
      const headers = {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-cache',
        etag,
        'last-modified': info.mtime.toUTCString(),
        ...(COMPRESSIBLE.has(extname(file)) && { vary: 'Accept-Encoding' }),
        ...(sent.encoding && { 'content-encoding': sent.encoding }),
      };
      if (unchanged(req, etag, info.mtimeMs)) {
        res.writeHead(304, headers).end();
        return;
      }
      const body = req.method === 'HEAD' ? null : await readFile(sent.path);
      if (policy && extname(file) === '.html') {
        headers['content-security-policy'] = declaredPolicy(await readFile(file, 'utf8')) ?? policy;
      }
      res.writeHead(200, { ...headers, 'content-length': sent.info.size });
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  server.on('clientError', (error, socket) => {
    if (!socket.writable) return socket.destroy();
    if (error.code === 'HPE_HEADER_OVERFLOW') socket.end(tooLong(error.rawPacket));
    else socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
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
    policy: args.includes('--plain') ? null : STRICT_POLICY,
  });
  console.log(`RVM Lab is served at ${url}  (Ctrl-C stops it)`);
}
