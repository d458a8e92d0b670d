#!/usr/bin/env bash
# Builds the wasm module and its JS glue into www/pkg (wasm-bindgen --target web).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --target wasm32-unknown-unknown --lib
wasm-bindgen --target web --no-typescript --out-dir www/pkg \
  target/wasm32-unknown-unknown/release/rvm_lab.wasm
# npm's binaryen (wasm-opt 132) shrinks the module by about a third. (Debian's wasm-opt 108
# silently breaks wasm-bindgen's output, so only the pinned npm one is used.)
if [ -x node_modules/.bin/wasm-opt ]; then
  node_modules/.bin/wasm-opt -Os --converge \
    --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals --enable-reference-types --enable-multivalue \
    www/pkg/rvm_lab_bg.wasm -o www/pkg/rvm_lab_bg.wasm
fi
# The generated JS glue is served minified (esbuild, pinned in package.json): 3.6 KB less.
if [ -x node_modules/.bin/esbuild ]; then
  node_modules/.bin/esbuild --minify --format=esm --charset=utf8 --log-level=warning \
    www/pkg/rvm_lab.js --outfile=www/pkg/rvm_lab.js --allow-overwrite
fi
raw=$(stat -c %s www/pkg/rvm_lab_bg.wasm)
# The page's weight: each file it loads (index.html and what it pulls in, with the strings
# of one language; not bench.html), gzipped on its own as a static server would send it,
# for the heavier language. The budget is 300 KB.
core=0
for f in www/index.html www/app.js www/i18n.js www/lesson.js www/style.css www/pkg/rvm_lab.js www/pkg/rvm_lab_bg.wasm; do
  core=$((core + $(gzip -9c "$f" | wc -c)))
done
page=0
for f in www/strings/*.js; do
  total=$((core + $(gzip -9c "$f" | wc -c)))
  [ "$total" -gt "$page" ] && page=$total
done
printf '[build] www/pkg/rvm_lab_bg.wasm: %d bytes; the page gzipped: %d bytes (budget 300000)\n' "$raw" "$page"
if [ "$page" -gt 300000 ]; then
  echo "[build] the page is over its 300 KB budget" >&2
  exit 1
fi
