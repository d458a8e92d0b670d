// Permalinks of any size. A view's short keys stay in the query (readable, as before); when
// the query would be longer than QUERY_MAX, its long values (the data points, imported CSV
// data, moved centres) travel in the URL's fragment instead — never sent to a server, so no
// server or proxy limit applies — packed and compressed:
//
//   #z=<base64url(deflate(packed))>
//
// `packed` is a version byte and, for each pair, its key and either its text or, for a
// list of decimal numbers in groups (`x:t,x:t,…`, `x1:x2:class,…`, `j:μ,…`), the numbers
// as whole multiples of 10^−d (d their most decimals), zigzagged and written in byte planes
// (all most significant bytes first), which deflate compresses well. The numbers come back
// as the same decimals, so the panel reads the same values (a 5000-point state takes about
// 25 KB). A browser without CompressionStream writes the pairs as a plain query in the
// fragment (`#points=…`), which the reader takes too.

/** The longest query the page writes (the classic safe URL length); longer, the long
 *  values move to the fragment. */
export const QUERY_MAX = 2000;
/** Values at least this long move to the fragment when the query is too long. */
const LONG_VALUE = 100;
/** The longest link the Share box offers: 32 768 characters. Browsers open far longer
 *  ones, but mail, chat and learning platforms cut or refuse links beyond a few tens of KB;
 *  a view whose link is longer is shared as a CSV file instead. */
export const LINK_MAX = 32 * 1024;

const VERSION = 1;
const TEXT = 0;
const NUMBERS = 1;
/** A decimal as Rust's `{}` prints an f64 (never in exponent form). */
const DECIMAL = /^-?\d+(\.\d+)?$/;
/** Most decimals kept exactly as a whole multiple of 10^−d. */
const MAX_DECIMALS = 15;

/** A fragment that cannot be read. */
export class LinkError extends Error {}

/** Splits `pairs` into those of the query and those of the fragment. */
export function splitPairs(pairs) {
  if (new URLSearchParams(pairs).toString().length <= QUERY_MAX) return { query: pairs, fragment: [] };
  return {
    query: pairs.filter(([, value]) => value.length < LONG_VALUE),
    fragment: pairs.filter(([, value]) => value.length >= LONG_VALUE),
  };
}

/** The fragment (without '#') holding `pairs`, packed and compressed when the browser can. */
export async function encodeFragment(pairs) {
  if (typeof CompressionStream === 'undefined') return new URLSearchParams(pairs).toString();
  const bytes = await transform(pack(pairs), new CompressionStream('deflate'));
  return `z=${toBase64Url(bytes)}`;
}

/** The pairs in a fragment (with or without its '#'): packed (`z=…`) or a plain query. */
export async function decodeFragment(hash) {
  const text = hash.replace(/^#/, '');
  if (!text.startsWith('z=')) return [...new URLSearchParams(text)];
  if (typeof DecompressionStream === 'undefined') throw new LinkError('this browser cannot decompress');
  let bytes;
  try {
    bytes = await transform(fromBase64Url(text.slice(2)), new DecompressionStream('deflate'));
  } catch (error) {
    throw error instanceof LinkError ? error : new LinkError('not compressed data');
  }
  return unpack(bytes);
}

/** The most bytes a fragment may unpack to (a 5000-point state is about 40 KB). */
const MAX_UNPACKED = 4 * 1024 * 1024;

/** Runs `bytes` through a compression or decompression stream (refusing more than
 *  MAX_UNPACKED bytes out, so that a hostile link cannot fill the memory). */
async function transform(bytes, stream) {
  const reader = new Blob([bytes]).stream().pipeThrough(stream).getReader();
  const chunks = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.length;
    if (length > MAX_UNPACKED) {
      await reader.cancel();
      throw new LinkError('too much data');
    }
    chunks.push(value);
  }
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

// ---- packing -------------------------------------------------------------------------

/** The bytes of `pairs`: version, then per pair its key and its text or numbers. */
export function pack(pairs) {
  const out = new Writer();
  out.byte(VERSION);
  for (const [key, value] of pairs) {
    out.text(key);
    const numbers = numberList(value);
    if (!numbers) {
      out.byte(TEXT);
      out.text(value);
      continue;
    }
    const { group, decimals, ints } = numbers;
    const zigzag = ints.map((m) => (m >= 0 ? 2 * m : -2 * m - 1));
    let width = 1;
    while (zigzag.some((z) => z >= 256 ** width)) width += 1;
    out.byte(NUMBERS);
    out.varint(group);
    out.varint(ints.length);
    out.byte(decimals);
    out.byte(width);
    for (let plane = width - 1; plane >= 0; plane -= 1) {
      for (const z of zigzag) out.byte(Math.floor(z / 256 ** plane) % 256);
    }
  }
  return out.bytes();
}

/** The pairs of `bytes` made by `pack`. */
export function unpack(bytes) {
  const input = new Reader(bytes);
  if (input.byte() !== VERSION) throw new LinkError('unknown version');
  const pairs = [];
  while (!input.done()) {
    const key = input.text();
    const kind = input.byte();
    if (kind === TEXT) {
      pairs.push([key, input.text()]);
      continue;
    }
    if (kind !== NUMBERS) throw new LinkError('unknown kind of value');
    const group = input.varint();
    const count = input.varint();
    const decimals = input.byte();
    const width = input.byte();
    if (group < 1 || count % group !== 0 || decimals > MAX_DECIMALS || width < 1 || width > 7) {
      throw new LinkError('malformed numbers');
    }
    if (count * width > input.left()) throw new LinkError('the data end early');
    const zigzag = new Array(count).fill(0);
    for (let plane = width - 1; plane >= 0; plane -= 1) {
      for (let i = 0; i < count; i += 1) zigzag[i] += input.byte() * 256 ** plane;
    }
    const texts = zigzag.map((z) => decimal(z % 2 === 0 ? z / 2 : -(z + 1) / 2, decimals));
    const groups = [];
    for (let i = 0; i < count; i += group) groups.push(texts.slice(i, i + group).join(':'));
    pairs.push([key, groups.join(',')]);
  }
  return pairs;
}

/**
 * `value` as groups of decimals — `{ group, decimals, ints }`, each number the whole
 * multiple `ints[i]` of 10^−decimals — or null when it is not such a list (or a number
 * does not fit exactly).
 */
function numberList(value) {
  if (value === '') return null;
  const groups = value.split(',').map((g) => g.split(':'));
  const group = groups[0].length;
  const tokens = groups.flat();
  if (groups.some((g) => g.length !== group) || !tokens.every((token) => DECIMAL.test(token))) return null;
  const decimals = tokens.reduce((most, token) => Math.max(most, token.split('.')[1]?.length ?? 0), 0);
  if (decimals > MAX_DECIMALS) return null;
  const ints = tokens.map((token) => {
    const [whole, fraction = ''] = token.split('.');
    const digits = `${whole.replace('-', '')}${fraction.padEnd(decimals, '0')}`;
    const magnitude = Number(digits);
    return token.startsWith('-') ? -magnitude : magnitude;
  });
  // Exact only while 2|m| + 1 is a safe integer.
  if (!ints.every((m) => Number.isSafeInteger(2 * Math.abs(m) + 1))) return null;
  return { group, decimals, ints };
}

/** m·10^−decimals written out, without trailing zeros. */
function decimal(m, decimals) {
  const digits = String(Math.abs(m)).padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return `${m < 0 ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** The bytes of `pack`, written one at a time. */
class Writer {
  constructor() {
    this.out = [];
  }

  byte(value) {
    this.out.push(value);
  }

  /** A whole number ≥ 0, seven bits a byte, the last byte's top bit clear (LEB128). */
  varint(value) {
    let rest = value;
    while (rest >= 128) {
      this.byte((rest % 128) + 128);
      rest = Math.floor(rest / 128);
    }
    this.byte(rest);
  }

  text(value) {
    const bytes = new TextEncoder().encode(value);
    this.varint(bytes.length);
    for (const b of bytes) this.byte(b);
  }

  bytes() {
    return Uint8Array.from(this.out);
  }
}

class Reader {
  constructor(bytes) {
    this.bytes = bytes;
    this.at = 0;
  }

  done() {
    return this.at >= this.bytes.length;
  }

  left() {
    return this.bytes.length - this.at;
  }

  byte() {
    if (this.done()) throw new LinkError('the data end early');
    this.at += 1;
    return this.bytes[this.at - 1];
  }

  varint() {
    let value = 0;
    for (let scale = 1; scale < 2 ** 49; scale *= 128) {
      const b = this.byte();
      value += (b % 128) * scale;
      if (b < 128) return value;
    }
    throw new LinkError('a number is too long');
  }

  text() {
    const length = this.varint();
    if (this.at + length > this.bytes.length) throw new LinkError('the data end early');
    const bytes = this.bytes.subarray(this.at, this.at + length);
    this.at += length;
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw new LinkError('a text is not UTF-8');
    }
  }
}

function toBase64Url(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text) {
  let binary;
  try {
    binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    throw new LinkError('not base64url');
  }
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}
