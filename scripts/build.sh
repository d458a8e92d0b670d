#!/usr/bin/env bash
# Builds the wasm module and its JS glue into www/pkg (wasm-bindgen --target web).
set -euo pipefail
cd "$(dirname "$0")/.."
# The module names the source files of its dependencies where they could panic: from the
# registry's folder, not from this machine's path to it (a few hundred bytes gzipped less,
# and the same module whoever builds it).
cargo fetch --quiet
shopt -s nullglob
for registry in "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/; do
  RUSTFLAGS="${RUSTFLAGS:-} --remap-path-prefix=${registry%/}=registry"
done
shopt -u nullglob
export RUSTFLAGS="${RUSTFLAGS:-}"
# Builds the crate (cargo features `features`, further RUSTFLAGS `flags`) in target directory
# `dir`, and runs wasm-bindgen on it into `out`: `<out>/<name>.js` and `<out>/<name>_bg.wasm`.
build_wasm() {
  local name=$1 features=$2 flags=$3 dir=$4 out=$5
  RUSTFLAGS="${RUSTFLAGS:-} $flags" cargo build --release --target wasm32-unknown-unknown --lib $features --target-dir "$dir"
  wasm-bindgen --target web --no-typescript --out-name "$name" --out-dir "$out" \
    "$dir/wasm32-unknown-unknown/release/rvm_lab.wasm"
}
# Builds module `name` (cargo features `features`) twice, in target directories `dir` and
# `simd_dir`: plain, www/pkg/<name>_bg.wasm, and with wasm's SIMD (simd128),
# www/pkg/<name>_simd_bg.wasm, which browsers that have it load instead (www/module.js
# chooses): the same numbers to the bit, faster. Each build has its own target directory, so
# that neither throws away the other's cache. The two have the same exports and imports, so
# one JS glue, www/pkg/<name>.js, serves both; the build checks.
build_module() {
  local name=$1 features=$2 dir=$3 simd_dir=$4 glue
  build_wasm "$name" "$features" "" "$dir" www/pkg
  glue=$(mktemp -d)
  build_wasm "$name" "$features" "-C target-feature=+simd128" "$simd_dir" "$glue"
  if ! cmp -s "$glue/$name.js" "www/pkg/$name.js"; then
    echo "[build] the SIMD build of $name has JS glue other than the plain build's" >&2
    exit 1
  fi
  mv "$glue/${name}_bg.wasm" "www/pkg/${name}_simd_bg.wasm"
  rm -r "$glue"
}
# The page's module.
build_module rvm_lab "" target target/simd
# The bench module, for www/bench.html only: the page's module with the benchmarks besides
# (the feature `bench`, src/web/bench.rs), which the page's readers do not download.
build_module bench "--features bench" target/bench target/bench-simd
# The formula module, www/pkg/formula_bg.wasm with its glue formula.js: the same crate built
# with the feature `formula-module`, which holds only the formula family's parser
# (src/formula_module.rs). The page loads it when a formula is first asked for (www/formula.js),
# so the readers who never type one do not download it. One build serves every browser.
build_wasm formula "--features formula-module" "" target/formula www/pkg
# npm's binaryen (wasm-opt 132) shrinks the module by about a third. (Debian's wasm-opt 108
# silently breaks wasm-bindgen's output, so only the pinned npm one is used.)
# --low-memory-unused lets it fold a constant added to an address into the load or store
# (2–3 KB gzipped): it may assume no access below address 1024, which holds here because
# Rust links wasm with the stack first (the stack pointer starts at 1 MiB and grows down, the
# data lie above it), so only a stack 1023 KiB deep would reach those bytes; the build checks
# that no data segment starts below 1024.
if [ -x node_modules/.bin/wasm-opt ]; then
  for build in rvm_lab_bg rvm_lab_simd_bg bench_bg bench_simd_bg formula_bg; do
    lowest=$(node_modules/.bin/wasm-dis "www/pkg/$build.wasm" | grep -oP '^ *\(data \S+ \(i32\.const \K[0-9]+' | sort -n | head -1)
    if [ "${lowest:-0}" -lt 1024 ]; then
      echo "[build] $build.wasm has data at address ${lowest:-?}, below 1024: --low-memory-unused would be wrong" >&2
      exit 1
    fi
    node_modules/.bin/wasm-opt -Os --converge --low-memory-unused \
      --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
      --enable-mutable-globals --enable-reference-types --enable-multivalue \
      $(case "$build" in *simd*) echo --enable-simd ;; esac) \
      "www/pkg/$build.wasm" -o "www/pkg/$build.wasm"
  done
fi
# The generated JS glue is served minified (esbuild, pinned in package.json): 3.6 KB less.
if [ -x node_modules/.bin/esbuild ]; then
  for glue in rvm_lab bench formula; do
    node_modules/.bin/esbuild --minify --format=esm --charset=utf8 --log-level=warning \
      "www/pkg/$glue.js" --outfile="www/pkg/$glue.js" --allow-overwrite
  done
fi
# The page's own modules (www/app.js and the modules it imports, each small and readable)
# are served as one minified bundle, www/app.min.js, beside them: one request instead of
# thirteen, and 11 KB less gzipped. The module glue and the strings stay separate files
# (the strings of the other language load only when the reader switches).
if [ ! -x node_modules/.bin/esbuild ]; then
  echo "[build] esbuild is missing: run scripts/setup.sh (npm ci) first" >&2
  exit 1
fi
# The bundle and the start-up guard know which panels have words of their own
# (www/strings/en/<panel>.js), so that the open panel's load beside the language's instead of
# after them (a name that is not one of them asks the server for nothing).
panels=$(node --input-type=module -e "import { panelsWithWords } from './scripts/boot.mjs'; console.log(JSON.stringify(panelsWithWords()))")
# The start-up guard (www/boot.js, a classic script that starts the page's module) is served
# minified as well (www/boot.min.js, scripts/boot.mjs), and so is the module it puts in to show
# a panel's English words before the page's module (www/shell.js → www/shell.min.js; its
# imports, the strings, stay as they are).
node scripts/boot.mjs
node_modules/.bin/esbuild www/shell.js --minify --format=esm --charset=utf8 --log-level=warning \
  --outfile=www/shell.min.js
# embed.js is also served as a classic script, www/embed.global.js (its exports on
# window.RvmLab), for course pages on other hosts: a module from another origin loads only
# with CORS headers, which a plain static host does not send.
node_modules/.bin/esbuild www/embed.js --bundle --minify --format=iife --global-name=RvmLab --charset=utf8 \
  --log-level=warning --log-override:empty-import-meta=silent --outfile=www/embed.global.js
# The stylesheet is served minified too (www/style.min.css, 1.5 KB less gzipped); its
# comments stay in the source, www/style.css.
node_modules/.bin/esbuild www/style.css --minify --charset=utf8 --log-level=warning --outfile=www/style.min.css
node_modules/.bin/esbuild www/app.js --bundle --minify --format=esm --charset=utf8 --log-level=warning \
  --define:PANELS_WITH_WORDS="$panels" \
  --external:./pkg/rvm_lab.js --external:'./strings/*' --outfile=www/app.min.js
# The lesson editor (www/editor.js, "Make a lesson") is its own bundle, www/editor.min.js, with
# its stylesheet www/editor.min.css: app.js imports it (assets.js, a path the bundle above does
# not resolve) when first used, so the page's first load does not carry it. It imports none of
# the page's modules (app.js hands it what it uses), so it shares their state.
node_modules/.bin/esbuild www/editor.js --bundle --minify --format=esm --charset=utf8 --log-level=warning \
  --outfile=www/editor.min.js
# Its TeX converter (www/tex.js with npm's Temml, pinned in package.json) is a bundle of its
# own, www/tex.min.js, which the editor loads when it first opens (www/tex-module.js): a
# lesson link's reader, whose lesson the editor's module plays, does not download it.
node_modules/.bin/esbuild www/tex.js --bundle --minify --format=esm --charset=utf8 --log-level=warning \
  --outfile=www/tex.min.js
# A lesson's session with an LMS (www/scorm-session.js) likewise: scorm.js loads it only where
# it finds an LMS.
node_modules/.bin/esbuild www/scorm-session.js --bundle --minify --format=esm --charset=utf8 --log-level=warning \
  --outfile=www/scorm-session.min.js
# A link's packing and compression (www/link-pack.js) likewise: link.js loads it when a link
# first needs it (a state too long for the query, a packed link opened).
node_modules/.bin/esbuild www/link-pack.js --bundle --minify --format=esm --charset=utf8 --log-level=warning \
  --outfile=www/link-pack.min.js
# The share box's snippet and Copy buttons and the PNG for slides (www/share.js) likewise:
# url.js loads it when the box is first opened or a PNG first saved.
node_modules/.bin/esbuild www/share.js --bundle --minify --format=esm --charset=utf8 --log-level=warning \
  --outfile=www/share.min.js
node_modules/.bin/esbuild www/editor.css --minify --charset=utf8 --log-level=warning --outfile=www/editor.min.css
# The comparisons' worker (www/worker.js, started by www/comparisons.js when a panel is first
# opened, to open it ahead of the page) is served minified as www/worker.min.js; it imports
# the same glue.
node_modules/.bin/esbuild www/worker.js --bundle --minify --format=esm --charset=utf8 --log-level=warning \
  --external:./pkg/rvm_lab.js --outfile=www/worker.min.js
# The example slide deck (www/deck.html) uses reveal.js from npm (pinned in package.json),
# copied beside the page so the deck loads nothing from another host. Not part of the page.
node scripts/reveal.mjs
# The built-in lessons' MathML, made from their TeX (scripts/lesson-math.mjs: a step whose
# "math" is stale is written again; tests/e2e/lesson_tex.test.mjs fails on one).
node scripts/lesson-math.mjs
# The single file, www/rvm-lab.html: the whole lab in one HTML file, for disk, sandboxed
# frames and LMS packages (scripts/single.mjs says how).
node scripts/single.mjs
# And the single file a lesson's SCORM package holds: in student mode, without the editor.
node scripts/single.mjs --student --out www/rvm-lab-student.html
# Precompressed siblings (.br and .gz) of every text and wasm file, which scripts/serve.mjs
# (and nginx, Caddy …) sends in place of the file.
node scripts/compress.mjs www
raw=$(stat -c %s www/pkg/rvm_lab_bg.wasm)
raw_simd=$(stat -c %s www/pkg/rvm_lab_simd_bg.wasm)
# The page's weight: each file it loads (index.html, the start-up guard and shell.min.js, the
# stylesheet, the heavier of the two module builds and its glue, the bundle of the page's
# modules, the worker's script, the strings of one language and the open panel's own words in
# it) as sent gzipped (its .gz sibling), for the heavier language and the heaviest panel;
# brotli, which browsers prefer, is smaller. The budget is 350 KB (the quality rules: one
# panel's first load, one language, gzipped).
weight() {
  local suffix=$1 core=0 total heaviest=0 own f p module
  for f in www/index.html www/boot.min.js www/shell.min.js www/style.min.css www/pkg/rvm_lab.js www/app.min.js www/worker.min.js; do
    core=$((core + $(stat -c %s "$f$suffix")))
  done
  module=$(stat -c %s www/pkg/rvm_lab_bg.wasm"$suffix")
  [ "$(stat -c %s www/pkg/rvm_lab_simd_bg.wasm"$suffix")" -gt "$module" ] &&
    module=$(stat -c %s www/pkg/rvm_lab_simd_bg.wasm"$suffix")
  core=$((core + module))
  for f in www/strings/*.js; do
    own=0
    for p in "${f%.js}"/*.js; do
      # (The formula family's words are no panel's: they load with the formula module, where a
      # formula is asked for, and like it are not part of a panel's first load.)
      [ "${p##*/}" = formula.js ] && continue
      [ "$(stat -c %s "$p$suffix")" -gt "$own" ] && own=$(stat -c %s "$p$suffix")
    done
    total=$((core + $(stat -c %s "$f$suffix") + own))
    [ "$total" -gt "$heaviest" ] && heaviest=$total
  done
  echo "$heaviest"
}
page=$(weight .gz)
printf '[build] www/pkg/rvm_lab_bg.wasm: %d bytes, rvm_lab_simd_bg.wasm: %d; the page gzipped: %d bytes (budget 350000), in brotli: %d\n' \
  "$raw" "$raw_simd" "$page" "$(weight .br)"
if [ "$page" -gt 350000 ]; then
  echo "[build] the page is over its 350 KB budget" >&2
  exit 1
fi
# What a lecturer downloads instead of building: the site as dist/rvm-lab-<version>.zip, and
# each lesson as a SCORM 1.2 package, dist/scorm/<lesson>.zip (scripts/package.mjs).
node scripts/package.mjs
