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

    /// Every spelling a rule should recognise: the file name, the base, the name without a
    /// `-static` build suffix, and the letters before the first digit (`perl5.36-x86_64-linux-gnu` →
    /// `perl`). Extra forms can only make a rule match more often.
    var forms: [String] {
        var result = [fileName, base]
        for suffix in ["-static", ".static", "_static"] where fileName.hasSuffix(suffix) {
            result.append(String(fileName.dropLast(suffix.count)))
        }
        let letters = fileName.prefix { !$0.isNumber }.trimmingSuffix(while: { $0 == "-" || $0 == "." || $0 == "_" })
        if letters.count > 1 { result.append(String(letters)) }
        return result
    }
}

extension Substring {
    fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> Substring {
        var result = self
        while let last = result.last, predicate(last) { result.removeLast() }
        return result
    }
}
