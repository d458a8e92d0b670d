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
  node_modules/.bin/wasm-opt -Os \
    --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals --enable-reference-types --enable-multivalue \
    www/pkg/rvm_lab_bg.wasm -o www/pkg/rvm_lab_bg.wasm
fi
raw=$(stat -c %s www/pkg/rvm_lab_bg.wasm)
gz=$(cat www/pkg/rvm_lab_bg.wasm www/pkg/rvm_lab.js www/*.js www/*.css www/*.html | gzip -9 | wc -c)
printf '[build] www/pkg/rvm_lab_bg.wasm: %d bytes; whole page gzipped: %d bytes\n' "$raw" "$gz"
