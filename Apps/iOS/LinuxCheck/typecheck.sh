#!/usr/bin/env bash
# Type-checks the iOS app on Linux: every Swift file under Apps/iOS/OpenClaw, against the package's built
# library modules (only their public API) and the declaration-only Apple frameworks in Interfaces/, with
# the app's compiler settings from Apps/iOS/project.yml. Exits non-zero on any error.
#
#   Apps/iOS/LinuxCheck/typecheck.sh [--app-dir DIR] [--no-build]
#
# --app-dir   type-check the app sources in DIR instead (the meta-check passes a modified copy)
# --no-build  use the modules already in .build (the meta-check, after one run built them)
#
# What a pass proves and what it cannot: README.md, "What is checked without a Mac".
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
app_dir="$root/Apps/iOS/OpenClaw"
build=1
while [ $# -gt 0 ]; do
    case "$1" in
        --app-dir) app_dir="$(cd "$2" && pwd)"; shift 2 ;;
        --no-build) build=0; shift ;;
        *) echo "usage: $0 [--app-dir DIR] [--no-build]" >&2; exit 2 ;;
    esac
done
cd "$root"

# The package products the app links (project.yml's dependencies). OpenClawAppModel brings Protocol, Chat,
# Presentation and Gateway; OpenClawAppDemo the test gateway's core; OpenClawStore the rest. After `swift test` these builds have nothing to do.
if [ "$build" = 1 ]; then
    for target in OpenClawAppModel OpenClawAppDemo OpenClawStore; do
        swift build --target "$target" >/dev/null 2>&1 || { swift build --target "$target"; exit 1; }
    done
fi
bin="$(swift build --show-bin-path 2>/dev/null)"
manifest="$root/.build/debug.yaml"
[ -d "$bin/Modules" ] && [ -f "$manifest" ] || { echo "no package build in $bin: run swift build first" >&2; exit 1; }

# The C modules under the package's modules (NIO's, BoringSSL's, SQLite's) are found as SwiftPM finds
# them: the `-Xcc` flags of the commands that compiled the app's dependencies, read from the build manifest.
xcc=()
for module in OpenClawAppModel OpenClawAppDemo OpenClawStore; do
    line="$(grep -F "\"-module-name\",\"$module\"," "$manifest" | head -n 1)"
    [ -n "$line" ] || { echo "$module is not in $manifest" >&2; exit 1; }
    while IFS= read -r flag; do xcc+=(-Xcc "$flag"); done < <(grep -o '"-Xcc","[^"]*"' <<<"$line" | sed 's/^"-Xcc","//; s/"$//')
done

# The app's settings (project.yml): Swift 6, complete strict concurrency, ExistentialAny and
# MemberImportVisibility; the Debug configuration's DEBUG condition; `@main` needs -parse-as-library. Warnings
# are errors: the ones this check first found (a non-Sendable closure handed to SwiftUI as a @MainActor
# button action) are data races in waiting. -wmo and -continue-building-after-errors report every error.
sources=()
while IFS= read -r -d '' file; do sources+=("$file"); done < <(find "$app_dir" -name '*.swift' -print0 | sort -z)
[ "${#sources[@]}" -gt 0 ] || { echo "no Swift files under $app_dir" >&2; exit 1; }
swiftc -typecheck -parse-as-library -module-name OpenClaw \
    -swift-version 6 -strict-concurrency=complete -wmo -continue-building-after-errors \
    -enable-upcoming-feature ExistentialAny -enable-upcoming-feature MemberImportVisibility \
    -D DEBUG -warnings-as-errors \
    -I "$bin/Modules" -I "$here/Interfaces" \
    -module-cache-path "${LINUXCHECK_MODULE_CACHE:-$bin/ModuleCache}" \
    "${xcc[@]}" \
    "${sources[@]}"
echo "typecheck: ${#sources[@]} files of $(basename "$app_dir") type-check against the package and Interfaces/"
