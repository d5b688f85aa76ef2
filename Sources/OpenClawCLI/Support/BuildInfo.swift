/// The version of `openclaw-chat`, and the commit it was built from.
///
/// This file is the version's one home: `scripts/package.sh` reads `version` from it for the `.deb`,
/// the tarball and the Homebrew formula's test, and writes `commit` into its copy of the sources before
/// a release build. A build from a work tree (`swift build`) says `commit` is unknown rather than
/// guessing.
enum BuildInfo {
    static let version = "0.2.0"
    static let commit: String? = nil

    /// What `--version` prints: `0.2.0 (commit 1a2b3c4d5e6f)`.
    static var versionLine: String {
        "\(version) (\(commit.map { "commit \($0)" } ?? "commit unknown: built from a work tree"))"
    }
}
