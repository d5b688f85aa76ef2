#!/usr/bin/env bash
# Builds the release artifacts of openclaw-chat from a clean copy of HEAD, with one command:
#   scripts/package.sh            → dist/ holds the static binary, the .deb, the .tar.gz and SHA256SUMS
# The copy (git archive HEAD, so uncommitted changes never ship) gets the commit written into
# BuildInfo.swift; the build keeps its scratch folder (.build-package/, ignored by git) between runs, so a
# second run rebuilds only what changed. Prints the binary's and the .deb's sizes and the installed-style
# start-up time of `--help` (median of 20).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${PACKAGE_OUT:-$root/dist}
work=${PACKAGE_WORK:-$root/.build-package}
name=openclaw-chat
build_info=Sources/OpenClawCLI/Support/BuildInfo.swift

version=$(sed -n 's/^    static let version = "\(.*\)"$/\1/p' "$root/$build_info")
[ -n "$version" ] || { echo "package.sh: no version in $build_info" >&2; exit 1; }
commit=$(git -C "$root" rev-parse --short=12 HEAD)
arch=$(uname -m)
deb_arch=$(dpkg --print-architecture 2>/dev/null || echo "$arch")
stem="$name-$version-linux-$arch"

echo "== $name $version (commit $commit) for $arch"
src="$work/src"
rm -rf "$src"
mkdir -p "$src" "$out"
git -C "$root" archive HEAD | tar -x -C "$src"
sed -i "s/^    static let commit: String? = nil$/    static let commit: String? = \"$commit\"/" "$src/$build_info"
grep -q "\"$commit\"" "$src/$build_info" || { echo "package.sh: could not stamp the commit" >&2; exit 1; }

echo "== static release build (the README's one-file recipe)"
started=$(date +%s)
"$src/scripts/build-static.sh" "$work/.build-static"
echo "   built in $(( $(date +%s) - started )) s"

stage="$work/stage"
rm -rf "$stage"
mkdir -p "$stage"
binary="$stage/$name"
strip -o "$binary" "$work/.build-static/release/$name"
"$binary" --version | grep -q "$commit" || { echo "package.sh: --version does not name $commit" >&2; exit 1; }

echo "== completions and man page (generated from the command definitions)"
mkdir -p "$stage/completions" "$stage/man"
"$binary" --generate-completion-script bash >"$stage/completions/$name.bash"
"$binary" --generate-completion-script zsh >"$stage/completions/_$name"
"$binary" --generate-completion-script fish >"$stage/completions/$name.fish"
"$binary" --experimental-dump-help | python3 "$root/scripts/man-page.py" "$version" "$(git -C "$root" log -1 --format=%cs)" \
    >"$stage/man/$name.1"
gzip -9 -n -c "$stage/man/$name.1" >"$stage/man/$name.1.gz"

# What the binary needs from the system, as Debian packages (the C library and libgcc's unwinder).
depends=$(ldd "$binary" | awk '/=> \// { print $3 }' | while read -r library; do
    dpkg -S "$(readlink -f "$library")" 2>/dev/null || dpkg -S "$library" 2>/dev/null
done | cut -d: -f1 | sort -u | paste -sd, - | sed 's/,/, /g')
[ -n "$depends" ] || depends="libc6, libgcc-s1"

echo "== .deb (Depends: $depends)"
deb_root="$work/deb"
rm -rf "$deb_root"
install -Dm755 "$binary" "$deb_root/usr/bin/$name"
install -Dm644 "$stage/man/$name.1.gz" "$deb_root/usr/share/man/man1/$name.1.gz"
install -Dm644 "$stage/completions/$name.bash" "$deb_root/usr/share/bash-completion/completions/$name"
install -Dm644 "$stage/completions/_$name" "$deb_root/usr/share/zsh/vendor-completions/_$name"
install -Dm644 "$stage/completions/$name.fish" "$deb_root/usr/share/fish/vendor_completions.d/$name.fish"
install -Dm644 "$root/README.md" "$deb_root/usr/share/doc/$name/README.md"
install -Dm644 "$root/COPYRIGHT" "$deb_root/usr/share/doc/$name/copyright"
mkdir -p "$deb_root/DEBIAN"
cat >"$deb_root/DEBIAN/control" <<CONTROL
Package: $name
Version: $version
Architecture: $deb_arch
Maintainer: OpenClaw native client maintainers <noreply@openclaw.invalid>
Depends: $depends
Section: net
Priority: optional
Installed-Size: $(du -sk "$deb_root/usr" | cut -f1)
Homepage: https://github.com/openclaw/openclaw
Description: terminal client for OpenClaw gateways
 Chat with the agent on your OpenClaw gateway from a terminal: streamed replies,
 sessions, history and search, approvals, and node mode (run the agent's commands
 on this computer under your exec policy).
CONTROL
deb="$out/${name}_${version}_${deb_arch}.deb"
dpkg-deb --root-owner-group --build "$deb_root" "$deb" >/dev/null

echo "== tarball"
tar_root="$work/$stem"
rm -rf "$tar_root"
mkdir -p "$tar_root/completions" "$tar_root/man"
cp "$binary" "$tar_root/"
cp "$stage/completions/"* "$tar_root/completions/"
cp "$stage/man/$name.1" "$tar_root/man/"
cp "$root/README.md" "$root/COPYRIGHT" "$tar_root/"
tar -C "$work" --owner=0 --group=0 -czf "$out/$stem.tar.gz" "$stem"
cp "$binary" "$out/$stem"

(cd "$out" && sha256sum "$stem" "$stem.tar.gz" "$(basename "$deb")" >SHA256SUMS)

echo "== measured"
size() { stat -c %s "$1" | awk '{ printf "%.1f MB (%d bytes)", $1 / 1000000, $1 }'; }
echo "   binary: $(size "$out/$stem")"
echo "   .deb:   $(size "$deb")"
echo "   .tar.gz: $(size "$out/$stem.tar.gz")"
python3 - "$out/$stem" <<'PY'
import statistics, subprocess, sys, time
samples = []
for _ in range(20):
    start = time.perf_counter()
    subprocess.run([sys.argv[1], "--help"], stdout=subprocess.DEVNULL, check=True)
    samples.append((time.perf_counter() - start) * 1000)
print("   --help start-up: median %.1f ms of 20 (min %.1f)" % (statistics.median(samples), min(samples)))
PY
echo "== artifacts in $out"
cat "$out/SHA256SUMS"
