#!/usr/bin/env bash
# Checks that Apps/iOS/project.yml covers the app: every file under the app's folders (Apps/iOS, except
# LinuxCheck, which only this machine's type-check reads, and project.yml itself) is in one of the OpenClaw
# target's `sources` paths and not excluded (XcodeGen then adds Swift files as sources and the rest as
# resources), or is the target's INFOPLIST_FILE; every path project.yml names exists; and the LinuxCheck
# stand-ins are never among the app's sources.
set -euo pipefail
ios="$(cd "$(dirname "$0")/.." && pwd)"
spec="$ios/project.yml"
cd "$ios"

# The `path:` and `excludes:` entries of the sources list (XcodeGen's shape as written in project.yml).
read_sources() {
    awk '
        /^    sources:/ { in_sources = 1; next }
        in_sources && /^    [a-zA-Z]/ { in_sources = 0 }
        in_sources && /- path:/ { sub(/.*- path:[ ]*/, ""); current = $0; print "path " $0; next }
        in_sources && /excludes:/ { in_excludes = 1; next }
        in_sources && in_excludes && /^ *- / { sub(/^ *- */, ""); print "exclude " current "/" $0; next }
    ' "$spec"
}
paths=()
excludes=()
while read -r kind value; do
    case "$kind" in
        path) paths+=("$value") ;;
        exclude) excludes+=("$value") ;;
    esac
done < <(read_sources)
[ "${#paths[@]}" -gt 0 ] || { echo "projectcheck: no sources in $spec" >&2; exit 1; }

status=0
for path in "${paths[@]}" "${excludes[@]}"; do
    [ -e "$path" ] || { echo "projectcheck: project.yml names $path, which does not exist" >&2; status=1; }
done
for path in "${paths[@]}"; do
    case "$path" in LinuxCheck*) echo "projectcheck: the stand-ins ($path) must not be app sources" >&2; status=1 ;; esac
done
plist="$(awk '/^ *INFOPLIST_FILE:/ { print $2 }' "$spec")"
[ -f "$plist" ] || { echo "projectcheck: INFOPLIST_FILE $plist does not exist" >&2; status=1; }

count=0
while IFS= read -r -d '' file; do
    file="${file#./}"
    covered=0
    for path in "${paths[@]}"; do
        case "$file" in "$path"/*|"$path") covered=1 ;; esac
    done
    for exclude in "${excludes[@]}"; do
        case "$file" in "$exclude"|"$exclude"/*) covered=0 ;; esac
    done
    [ "$file" = "$plist" ] && covered=1
    if [ "$covered" = 0 ]; then
        echo "projectcheck: $file is not in project.yml's sources (nor its Info.plist)" >&2
        status=1
    fi
    count=$((count + 1))
done < <(find . -path ./LinuxCheck -prune -o -type f ! -name project.yml ! -name .DS_Store -print0)
[ "$status" = 0 ] && echo "projectcheck: project.yml covers the app's $count files"
exit "$status"
