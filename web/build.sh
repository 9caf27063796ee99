#!/usr/bin/env bash
# Builds the browser version of contactlab into dist/: index.html, contactlab.js (the
# wasm-bindgen glue) and contactlab_bg.wasm, nothing else. Adds the wasm32 target and
# installs the wasm-bindgen CLI of the version Cargo.lock pins when they are missing;
# runs wasm-opt when it is installed (binaryen; optional). Serve with web/serve.sh.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown
want=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
[ -n "$want" ] || { echo "Cargo.lock names no wasm-bindgen: run cargo generate-lockfile" >&2; exit 1; }
have=$(wasm-bindgen --version 2>/dev/null | awk '{ print $2 }' || true)
if [ "$have" != "$want" ]; then
  echo "installing wasm-bindgen-cli $want (have: ${have:-none})"
  # --locked first; a registry mirror without one of its locked dependencies takes the
  # newest compatible ones instead.
  cargo install --locked wasm-bindgen-cli --version "$want" || cargo install wasm-bindgen-cli --version "$want"
fi
# WebAssembly SIMD (every current browser has it): glam's vectors and the solver's
# four-lane batches use it as they use SSE natively.
RUSTFLAGS="${RUSTFLAGS:-} -C target-feature=+simd128" \
  cargo build --profile web --target wasm32-unknown-unknown -p contactlab-web
rm -rf dist
mkdir -p dist
wasm-bindgen --target web --no-typescript --out-dir dist --out-name contactlab \
  "${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/web/contactlab_web.wasm"
if command -v wasm-opt >/dev/null; then
  wasm-opt -O2 --all-features dist/contactlab_bg.wasm -o dist/contactlab_bg.wasm
fi
cp web/index.html dist/index.html
ls -l dist
echo "gzip size of the wasm: $(gzip -9 -c dist/contactlab_bg.wasm | wc -c) bytes"
