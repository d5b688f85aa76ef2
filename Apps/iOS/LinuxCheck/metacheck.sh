#!/usr/bin/env bash
# Shows that typecheck.sh can fail: it type-checks a copy of the app three times and expects
#   1. the unmodified copy to pass;
#   2. a copy whose call to a package method uses another name (what renaming it in the package does to
#      the app) to fail, naming that member;
#   3. a copy where a view calls a main-actor method of the package from a nonisolated method to fail,
#      with Swift's actor-isolation error;
#   4. the same with a main-actor API of the declared Apple surface (SwiftUI's DismissAction), so the
#      stand-ins' isolation is shown to count too.
# Run after typecheck.sh (it reuses that build). Exits non-zero if any expectation is not met.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
app="$here/../OpenClaw"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0

# check NAME EXPECT(pass|fail) PATTERN: type-checks $work/NAME and compares the outcome.
check() {
    local name="$1" expect="$2" pattern="${3:-}" log="$work/$1.log"
    if "$here/typecheck.sh" --no-build --app-dir "$work/$name" >"$log" 2>&1; then
        outcome=pass
    else
        outcome=fail
    fi
    if [ "$outcome" != "$expect" ]; then
        echo "metacheck: $name: expected the type-check to $expect, it did $outcome" >&2
        tail -n 20 "$log" >&2
        failures=$((failures + 1))
    elif [ -n "$pattern" ] && ! grep -q -- "$pattern" "$log"; then
        echo "metacheck: $name: failed, but without \"$pattern\"" >&2
        tail -n 20 "$log" >&2
        failures=$((failures + 1))
    else
        echo "metacheck: $name: ${outcome}ed as expected"
    fi
}

copy() { cp -R "$app" "$work/$1"; }

# Replaces exactly one occurrence of $2 by $3 in file $1, or fails (so an edit of the app that removes
# the line this relies on breaks the meta-check loudly instead of making it vacuous).
edit() {
    local file="$1" from="$2" to="$3"
    [ "$(grep -cF -- "$from" "$file")" = 1 ] || { echo "metacheck: \"$from\" is not once in $file" >&2; exit 1; }
    FROM="$from" TO="$to" perl -0pi -e 's/\Q$ENV{FROM}\E/$ENV{TO}/' "$file"
}

copy unmodified
check unmodified pass

# 1. AppModel.declineCertificate() (OpenClawAppModel) as if the package had renamed it.
copy renamed-package-symbol
edit "$work/renamed-package-symbol/Views/RootView.swift" \
    'model.declineCertificate()' 'model.declineCertificateRenamed()'
check renamed-package-symbol fail "declineCertificateRenamed"

# 2. A nonisolated method of a view calling the main-actor AppModel.declineCertificate().
copy nonisolated-call
cat >>"$work/nonisolated-call/Views/RootView.swift" <<'SWIFT'

extension RootView {
    nonisolated func declineFromAnywhere(_ model: AppModel) {
        model.declineCertificate()
    }
}
SWIFT
check nonisolated-call fail "main actor-isolated"

# 3. A nonisolated method of a view calling SwiftUI's DismissAction (@MainActor in the SDK).
copy nonisolated-swiftui-call
cat >>"$work/nonisolated-swiftui-call/Views/Onboarding/SettingsView.swift" <<'SWIFT'

extension SettingsView {
    nonisolated func close(with dismiss: DismissAction) {
        dismiss()
    }
}
SWIFT
check nonisolated-swiftui-call fail "main actor-isolated"

[ "$failures" = 0 ] || exit 1
echo "metacheck: the type-check passes on the app and fails on each of the three mistakes"
