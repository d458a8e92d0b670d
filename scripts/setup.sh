#!/usr/bin/env bash
# Installs whatever this machine lacks to build RVM Lab, and with `test` also to test it
# (Debian, as root). Each step is skipped when its tool is already there, so a second run
# takes a second.
#
#   bash scripts/setup.sh          building and serving (scripts/demo.sh): the wasm32 target,
#                                  wasm-bindgen-cli of exactly the version in Cargo.lock, and
#                                  the npm packages the build uses (package.json's dependencies)
#   bash scripts/setup.sh test     the same, and what the tests use (scripts/test.sh): clippy
#                                  and rustfmt, Debian's Chromium, ChromeDriver and firefox-esr,
#                                  and the npm test tools (its devDependencies; no tool
#                                  downloads a browser of its own)
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-build}

say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

# The CLI must match the wasm-bindgen crate exactly, or the generated glue is refused.
want=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" != "$want" ]; then
  say "installing wasm-bindgen-cli $want (have: ${have:-none}); this takes a few minutes"
  # --locked can fail when one of its locked dependencies is missing from the registry
  # mirror; the unlocked install of the same exact version works then.
  cargo install wasm-bindgen-cli --version "=$want" --locked ||
    cargo install wasm-bindgen-cli --version "=$want"
fi

if [ "$mode" = test ]; then
  for component in clippy rustfmt; do
    if ! rustup component list --installed | grep -q "^$component"; then
      say "adding the $component component"
      rustup component add "$component"
    fi
  done

  missing=()
  command -v chromium >/dev/null || missing+=(chromium)
  command -v chromedriver >/dev/null || missing+=(chromium-driver)
  command -v firefox-esr >/dev/null || missing+=(firefox-esr)
  if [ ${#missing[@]} -gt 0 ]; then
    say "installing Debian's ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
fi

# npm ci installs exactly package-lock.json: the build's tools, and for the tests theirs too
# (a tool that the mode needs and is missing, or a lock newer than the install, reinstalls).
needed=node_modules/esbuild
[ "$mode" = test ] && needed=node_modules/playwright-core
if [ ! -d "$needed" ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing npm packages from package-lock.json ($mode)"
  omit=()
  [ "$mode" = test ] || omit=(--omit=dev)
  PUPPETEER_SKIP_DOWNLOAD=1 npm ci "${omit[@]}" --no-audit --no-fund --loglevel=error
fi
