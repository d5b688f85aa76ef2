# Homebrew formula for openclaw-chat (a tap layout: `brew tap OWNER/REPO URL`, then
# `brew install openclaw-chat`). It cannot be tested on the Linux machines this project is built on; it
# keeps to the documented formula DSL. Before a release: set `url` to the tag's source archive and
# `sha256` to its checksum (scripts/package.sh prints the version; `shasum -a 256` the archive).
class OpenclawChat < Formula
  desc "Terminal client for OpenClaw gateways: chat, sessions, approvals and node mode"
  homepage "https://github.com/openclaw/openclaw"
  url "https://github.com/openclaw/openclaw-native/archive/refs/tags/v0.2.0.tar.gz"
  sha256 "0000000000000000000000000000000000000000000000000000000000000000"
  license :cannot_represent

  depends_on xcode: ["16.0", :build]
  depends_on :macos

  uses_from_macos "sqlite"

  def install
    system "swift", "build", "--disable-sandbox", "-c", "release", "--product", "openclaw-chat"
    bin.install ".build/release/openclaw-chat"
    generate_completions_from_executable(bin/"openclaw-chat", "--generate-completion-script")
  end

  test do
    assert_match version.to_s, shell_output("#{bin}/openclaw-chat --version")
    output = shell_output("#{bin}/openclaw-chat status --url ws://127.0.0.1:9 --token x 2>&1", 3)
    assert_match "127.0.0.1", output
  end
end
