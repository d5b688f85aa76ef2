/// A program's name reduced to what identifies it: the last path component, lower-cased, without a
/// Windows `.exe` and without a version suffix (`/usr/bin/python3.12` → `python`, `perl5.36` →
/// `perl`), so that a rule about `python` holds for every installed version of it.
public struct ExecProgramName: Sendable, Hashable {
    /// The file name as given, lower-cased (`python3.12`).
    public let fileName: String
    /// The name the rules use (`python`).
    public let base: String

    public init(_ path: String) {
        var name = String(path.split(separator: "/", omittingEmptySubsequences: false).last ?? "").lowercased()
        if name.hasSuffix(".exe") { name.removeLast(4) }
        fileName = name
        var base = Substring(name)
        while let last = base.last, last.isNumber || last == "." || last == "-", base.count > 1 {
            base.removeLast()
        }
        self.base = base.isEmpty ? name : String(base)
    }
}
