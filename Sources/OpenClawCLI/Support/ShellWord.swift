/// A word as a POSIX shell reads it back unchanged, for a command line the user is told to paste.
///
/// A command suggested from something the network sent (a discovered gateway's address) must not run
/// anything else when pasted: `$(…)`, `;`, a space or a quote in it would. Words of only letters,
/// digits and `@%+=:,./_-` are left bare (`wss://mini.local:18789`), every other one is single-quoted,
/// the only character special inside single quotes (`'`) written as `'\''`.
enum ShellWord {
    static func quoted(_ word: String) -> String {
        if !word.isEmpty, word.unicodeScalars.allSatisfy(isBare) { return word }
        var quoted = "'"
        for character in word { quoted += character == "'" ? #"'\''"# : String(character) }
        return quoted + "'"
    }

    private static func isBare(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "@", "%", "+", "=", ":", ",", ".", "/", "_", "-": true
        default: false
        }
    }
}
