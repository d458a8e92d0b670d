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
//
// The packing and compression (link-pack.js, its own bundle link-pack.min.js) load when a
// link first needs them: most views fit the query, and their readers never carry that code.

import { linkPackModule } from './assets.js';

/** The longest query the page writes (the classic safe URL length); longer, the long
 *  values move to the fragment. */
export const QUERY_MAX = 2000;
/** Values at least this long move to the fragment when the query is too long. */
const LONG_VALUE = 100;
/** The longest link the Share box offers: 32 768 characters. Browsers open far longer
 *  ones, but mail, chat and learning platforms cut or refuse links beyond a few tens of KB;
 *  a view whose link is longer is shared as a CSV file instead. */
export const LINK_MAX = 32 * 1024;

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
  return `z=${await (await linkPackModule()).compress(pairs)}`;
}

/** The pairs in a fragment (with or without its '#'): packed (`z=…`) or a plain query. */
export async function decodeFragment(hash) {
  const text = hash.replace(/^#/, '');
  if (!text.startsWith('z=')) return [...new URLSearchParams(text)];
  if (typeof DecompressionStream === 'undefined') throw new LinkError('this browser cannot decompress');
  const codec = await linkPackModule();
  try {
    return await codec.decompress(text.slice(2));
  } catch (error) {
    throw new LinkError(error instanceof codec.PackError ? error.message : 'not compressed data');
  }
}
