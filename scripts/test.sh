#!/usr/bin/env bash
# Every test of RVM Lab: native (cargo test), wasm-bindgen-test in headless Chromium,
# and the end-to-end page tests (playwright-core driving Debian's Chromium, with axe-core;
# puppeteer-core driving Debian's firefox-esr).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test

echo '[test] style: rustfmt and clippy (native and wasm32)'
cargo fmt --check
cargo clippy --quiet --all-targets -- -D warnings
cargo clippy --quiet --target wasm32-unknown-unknown --lib --tests -- -D warnings
# The formula module and the bench module (scripts/build.sh): the crate with their features.
cargo clippy --quiet --target wasm32-unknown-unknown --lib --features formula-module -- -D warnings
cargo clippy --quiet --target wasm32-unknown-unknown --lib --features bench -- -D warnings
# The module's SIMD build (scripts/build.sh), whose vector loops only it compiles.
RUSTFLAGS="${RUSTFLAGS:-} -C target-feature=+simd128" \
  cargo clippy --quiet --release --target wasm32-unknown-unknown --lib --target-dir target/simd -- -D warnings

echo '[test] native: cargo test'
cargo test --quiet

echo '[test] benches compile: cargo bench --no-run (they are run by hand, never timed in tests)'
cargo bench --quiet --no-run

echo '[test] wasm: wasm-bindgen-test in headless Chromium'
CHROMEDRIVER=/usr/bin/chromedriver WASM_BINDGEN_TEST_TIMEOUT=120 \
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  cargo test --target wasm32-unknown-unknown --test web

echo '[test] page: build, then end-to-end in Chromium and Firefox'
bash scripts/build.sh
node --test --test-concurrency=1 tests/e2e/
