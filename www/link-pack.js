// The packing and compression of a link's fragment (link.js says the format): pairs to
// `base64url(deflate(packed))` and back. Its own bundle (link-pack.min.js), loaded by link.js
// when a link first needs it.

const VERSION = 1;
const TEXT = 0;
const NUMBERS = 1;
/** A decimal as Rust's `{}` prints an f64 (never in exponent form). */
const DECIMAL = /^-?\d+(\.\d+)?$/;
/** Most decimals kept exactly as a whole multiple of 10^−d. */
const MAX_DECIMALS = 15;

/** Packed bytes that cannot be read (link.js words it as a LinkError). */
export class PackError extends Error {}

/** `pairs` packed, compressed (deflate) and written as base64url. */
export async function compress(pairs) {
  return toBase64Url(await transform(pack(pairs), new CompressionStream('deflate')));
}

/** The pairs of `text`, made by `compress`: a PackError if its bytes are not such, another
 *  error if they are not deflate. */
export async function decompress(text) {
  return unpack(await transform(fromBase64Url(text), new DecompressionStream('deflate')));
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
      throw new PackError('too much data');
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
function pack(pairs) {
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
function unpack(bytes) {
  const input = new Reader(bytes);
  if (input.byte() !== VERSION) throw new PackError('unknown version');
  const pairs = [];
  while (!input.done()) {
    const key = input.text();
    const kind = input.byte();
    if (kind === TEXT) {
      pairs.push([key, input.text()]);
      continue;
    }
    if (kind !== NUMBERS) throw new PackError('unknown kind of value');
    const group = input.varint();
    const count = input.varint();
    const decimals = input.byte();
    const width = input.byte();
    if (group < 1 || count % group !== 0 || decimals > MAX_DECIMALS || width < 1 || width > 7) {
      throw new PackError('malformed numbers');
    }
    if (count * width > input.left()) throw new PackError('the data end early');
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
    if (this.done()) throw new PackError('the data end early');
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
    throw new PackError('a number is too long');
  }

  text() {
    const length = this.varint();
    if (this.at + length > this.bytes.length) throw new PackError('the data end early');
    const bytes = this.bytes.subarray(this.at, this.at + length);
    this.at += length;
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw new PackError('a text is not UTF-8');
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
    throw new PackError('not base64url');
  }
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}
