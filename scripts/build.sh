#!/usr/bin/env bash
# Builds the wasm module and its JS glue into www/pkg (wasm-bindgen --target web).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --target wasm32-unknown-unknown --lib
wasm-bindgen --target web --no-typescript --out-dir www/pkg \
  target/wasm32-unknown-unknown/release/rvm_lab.wasm
raw=$(stat -c %s www/pkg/rvm_lab_bg.wasm)
gz=$(cat www/pkg/rvm_lab_bg.wasm www/pkg/rvm_lab.js www/*.js www/*.css www/*.html | gzip -9 | wc -c)
printf '[build] www/pkg/rvm_lab_bg.wasm: %d bytes; whole page gzipped: %d bytes\n' "$raw" "$gz"
