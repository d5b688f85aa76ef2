// Checks that each SDK module's public API is what its DocC catalog documents: every public top-level
// type, function or variable in the module's symbol graph (written by `generate-documentation`) is
// linked (``Name``) from one of the catalog's pages. Run from the repository's root after the
// documentation step: `swift .ci/public-api-check.swift OpenClawProtocol OpenClawGateway …`.
import Foundation

let kinds: Set<String> = [
    "swift.struct", "swift.class", "swift.enum", "swift.protocol", "swift.actor", "swift.typealias",
    "swift.func", "swift.var",
]
let fileManager = FileManager.default
var failed = false

/// The symbol graph of `module` from the last documentation build, wherever the build put it (the folder
/// under `extracted-symbols` is named after the checkout): the newest when there are several.
func symbolGraph(of module: String) -> URL? {
    var newest: (url: URL, date: Date)?
    for triple in (try? fileManager.contentsOfDirectory(atPath: ".build")) ?? [] {
        let extracted = ".build/\(triple)/extracted-symbols"
        for package in (try? fileManager.contentsOfDirectory(atPath: extracted)) ?? [] {
            let path = "\(extracted)/\(package)/\(module)/\(module).symbols.json"
            guard let attributes = try? fileManager.attributesOfItem(atPath: path),
                let date = attributes[.modificationDate] as? Date
            else { continue }
            if newest.map({ date > $0.date }) ?? true { newest = (URL(fileURLWithPath: path), date) }
        }
    }
    return newest?.url
}

for module in CommandLine.arguments.dropFirst() {
    guard let url = symbolGraph(of: module), let data = try? Data(contentsOf: url),
        let graph = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
        let symbols = graph["symbols"] as? [[String: Any]]
    else {
        print("\(module): no symbol graph; run the documentation step first")
        failed = true
        continue
    }
    var publicNames = Set<String>()
    for symbol in symbols {
        guard let path = symbol["pathComponents"] as? [String], path.count == 1,
            let access = symbol["accessLevel"] as? String, access == "public" || access == "open",
            let kind = (symbol["kind"] as? [String: Any])?["identifier"] as? String, kinds.contains(kind)
        else { continue }
        publicNames.insert(path[0])
    }
    var catalog = ""
    let folder = "Sources/\(module)/\(module).docc"
    for case let page as String in fileManager.enumerator(atPath: folder)?.allObjects ?? [] where page.hasSuffix(".md")
    {
        catalog += (try? String(contentsOfFile: "\(folder)/\(page)", encoding: .utf8)) ?? ""
    }
    let undocumented = publicNames.filter { !catalog.contains("``\($0)``") }.sorted()
    if undocumented.isEmpty {
        print("\(module): \(publicNames.count) public names, each in the catalog")
    } else {
        print("\(module): public but not in \(folder): \(undocumented.joined(separator: ", "))")
        print("  document each in the catalog's topics, or make it package/internal")
        failed = true
    }
}
exit(failed ? 1 : 0)
