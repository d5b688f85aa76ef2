#!/usr/bin/env bash
# The one-file release build of openclaw-chat (README, "Install it as one file"), in one place for the
# README, scripts/package.sh and the benchmarks: the Swift runtime and the C++ library linked in, no PIE,
# no exported symbols. The binary lands in SCRATCH/release/openclaw-chat.
# Usage: scripts/build-static.sh [SCRATCH]   (default: .build-static beside this package's Package.swift)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
scratch="${1:-$root/.build-static}"
# SwiftPM 6.3.1 kept a build plan made with other flags and linked without the new ones (seen when the -L
# below was added); without a plan it makes one, and recompiles only what the flags change.
rm -f "$scratch/release.yaml" "$scratch"/*/release/description.json
# SQLite is linked in from its static archive: say what is missing rather than fail in the link.
if [ "$(clang -print-file-name=libsqlite3.a)" = "libsqlite3.a" ]; then
    echo "build-static.sh: libsqlite3.a not found: install libsqlite3-dev (Debian, Ubuntu) or your system's static SQLite" >&2
    exit 1
fi
# SQLite's pkg-config file from scripts/static-libs first: its library directory then comes before the
# system's, where the shared library would answer -lsqlite3.
export PKG_CONFIG_PATH="$root/scripts/static-libs${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
swift build -c release --static-swift-stdlib --disable-local-rpath --product openclaw-chat --package-path "$root" --scratch-path "$scratch" \
    -Xswiftc -Xclang-linker -Xswiftc -no-pie -Xlinker --no-export-dynamic -Xswiftc -L"$root/scripts/static-libs"
