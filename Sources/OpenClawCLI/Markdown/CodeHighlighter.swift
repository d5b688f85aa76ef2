/// Simple syntax highlighting for fenced code, one line at a time: keywords, strings, comments and
/// numbers of common languages. Not a parser: a string or comment that spans lines is coloured on its
/// first line only, which keeps every line's colours independent of the lines after it (a streamed
/// code line is final as soon as it ends).
struct CodeHighlighter {
    struct Language {
        var keywords: Set<String>
        var lineComments: [String]
        var quotes: Set<Character> = ["\"", "'"]
    }

    let language: Language?

    init(language name: String?) {
        language = name.flatMap { Self.languages[$0.lowercased()] }
    }

    func spans(_ line: String) -> [StyledSpan] {
        guard let language else { return [StyledSpan(text: line)] }
        let chars = Array(line)
        var spans: [StyledSpan] = []
        var plain = ""
        func flush() {
            if !plain.isEmpty { spans.append(StyledSpan(text: plain)) }
            plain = ""
        }
        var index = 0
        while index < chars.count {
            let character = chars[index]
            if let comment = language.lineComments.first(where: { Self.matches($0, chars, at: index) }),
                comment != "#" || index == 0 || chars[index - 1].isWhitespace
            {
                flush()
                spans.append(StyledSpan(text: String(chars[index...]), style: .dim))
                return spans
            }
            if language.quotes.contains(character) {
                flush()
                var end = index + 1
                while end < chars.count, chars[end] != character {
                    end += chars[end] == "\\" ? 2 : 1
                }
                end = min(end + 1, chars.count)
                spans.append(StyledSpan(text: String(chars[index..<end]), tint: .green))
                index = end
                continue
            }
            if character.isLetter || character == "_" || character == "@" || character == "$" {
                var end = index + 1
                while end < chars.count, chars[end].isLetter || chars[end].isNumber || chars[end] == "_" { end += 1 }
                let word = String(chars[index..<end])
                if language.keywords.contains(word) {
                    flush()
                    spans.append(StyledSpan(text: word, tint: .magenta))
                } else {
                    plain += word
                }
                index = end
                continue
            }
            if character.isASCII, character.isNumber,
                index == 0 || !(chars[index - 1].isLetter || chars[index - 1] == "_")
            {
                var end = index + 1
                while end < chars.count,
                    chars[end].isHexDigit || chars[end] == "." || chars[end] == "_" || chars[end] == "x"
                {
                    end += 1
                }
                flush()
                spans.append(StyledSpan(text: String(chars[index..<end]), tint: .cyan))
                index = end
                continue
            }
            plain.append(character)
            index += 1
        }
        flush()
        return spans
    }

    private static func matches(_ token: String, _ chars: [Character], at index: Int) -> Bool {
        var position = index
        for character in token {
            guard position < chars.count, chars[position] == character else { return false }
            position += 1
        }
        return true
    }

    private static let cFamily: Set<String> = [
        "if", "else", "for", "while", "do", "switch", "case", "default", "break", "continue", "return", "const",
        "static", "struct", "enum", "typedef", "void", "int", "char", "long", "short", "unsigned", "float", "double",
        "sizeof", "goto", "extern", "inline", "true", "false", "NULL", "nullptr", "class", "public", "private",
        "protected", "new", "delete", "this", "template", "namespace", "using", "include", "define", "auto", "bool",
    ]

    static let languages: [String: Language] = {
        let swift = Language(
            keywords: [
                "let", "var", "func", "if", "else", "guard", "for", "in", "while", "repeat", "switch", "case",
                "default",
                "return", "struct", "class", "enum", "protocol", "extension", "import", "init", "self", "Self", "nil",
                "true", "false", "try", "throw", "throws", "async", "await", "actor", "public", "private", "internal",
                "fileprivate", "static", "some", "any", "where", "break", "continue", "defer", "do", "catch", "is",
                "as",
                "mutating", "final", "override", "typealias", "inout",
            ], lineComments: ["//"], quotes: ["\""])
        let python = Language(
            keywords: [
                "def", "class", "if", "elif", "else", "for", "while", "in", "not", "and", "or", "is", "return",
                "import",
                "from", "as", "with", "try", "except", "finally", "raise", "pass", "break", "continue", "lambda",
                "yield",
                "None", "True", "False", "async", "await", "global", "nonlocal", "assert", "del",
            ], lineComments: ["#"])
        let javascript = Language(
            keywords: [
                "const", "let", "var", "function", "return", "if", "else", "for", "while", "do", "switch", "case",
                "default", "break", "continue", "new", "class", "extends", "import", "export", "from", "async", "await",
                "try", "catch", "finally", "throw", "typeof", "instanceof", "in", "of", "this", "null", "undefined",
                "true", "false", "interface", "type", "enum", "implements", "public", "private", "readonly", "as",
            ], lineComments: ["//"], quotes: ["\"", "'", "`"])
        let shell = Language(
            keywords: [
                "if", "then", "else", "elif", "fi", "for", "while", "do", "done", "case", "esac", "in", "function",
                "return", "export", "local", "echo", "exit", "set", "unset", "source", "sudo", "cd",
            ], lineComments: ["#"])
        let go = Language(
            keywords: [
                "func", "package", "import", "var", "const", "type", "struct", "interface", "map", "chan", "go",
                "defer",
                "if", "else", "for", "range", "switch", "case", "default", "return", "break", "continue", "nil", "true",
                "false", "select", "fallthrough", "goto",
            ], lineComments: ["//"], quotes: ["\"", "'", "`"])
        let rust = Language(
            keywords: [
                "fn", "let", "mut", "if", "else", "match", "for", "in", "while", "loop", "return", "struct", "enum",
                "impl", "trait", "pub", "use", "mod", "crate", "self", "Self", "super", "const", "static", "true",
                "false", "as", "where", "async", "await", "move", "ref", "dyn", "unsafe", "Some", "None", "Ok", "Err",
            ], lineComments: ["//"], quotes: ["\""])
        let ruby = Language(
            keywords: [
                "def", "end", "class", "module", "if", "elsif", "else", "unless", "while", "until", "for", "in", "do",
                "return", "yield", "begin", "rescue", "ensure", "nil", "true", "false", "self", "require", "puts",
            ], lineComments: ["#"])
        let c = Language(keywords: cFamily, lineComments: ["//"])
        let java = Language(
            keywords: cFamily.union([
                "package", "import", "final", "abstract", "interface", "extends", "implements", "throws", "throw",
                "try",
                "catch", "finally", "null", "super", "synchronized", "var", "fun", "val", "when", "object", "override",
            ]), lineComments: ["//"])
        let sql = Language(
            keywords: [
                "select", "from", "where", "insert", "into", "values", "update", "set", "delete", "create", "table",
                "drop", "alter", "join", "left", "right", "inner", "outer", "on", "group", "by", "order", "limit",
                "and", "or", "not", "null", "as", "index", "primary", "key", "SELECT", "FROM", "WHERE", "INSERT",
                "INTO", "VALUES", "UPDATE", "SET", "DELETE", "CREATE", "TABLE", "DROP", "ALTER", "JOIN", "LEFT",
                "RIGHT", "INNER", "ON", "GROUP", "BY", "ORDER", "LIMIT", "AND", "OR", "NOT", "NULL", "AS", "INDEX",
                "PRIMARY", "KEY",
            ], lineComments: ["--"])
        let json = Language(keywords: ["true", "false", "null"], lineComments: [], quotes: ["\""])
        let yaml = Language(keywords: ["true", "false", "null", "yes", "no"], lineComments: ["#"])
        var table: [String: Language] = [:]
        for (names, language) in [
            (["swift"], swift), (["python", "py", "python3"], python),
            (["javascript", "js", "typescript", "ts", "jsx", "tsx", "mjs"], javascript),
            (["sh", "bash", "zsh", "shell", "console", "fish"], shell), (["go", "golang"], go),
            (["rust", "rs"], rust), (["ruby", "rb"], ruby), (["c", "h", "cpp", "c++", "cc", "hpp", "objc"], c),
            (["java", "kotlin", "kt", "scala", "csharp", "cs"], java), (["sql", "sqlite", "postgres"], sql),
            (["json", "jsonc"], json), (["yaml", "yml", "toml"], yaml),
        ] {
            for name in names { table[name] = language }
        }
        return table
    }()
}
