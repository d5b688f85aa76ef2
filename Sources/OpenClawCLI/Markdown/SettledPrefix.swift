/// Where the line being streamed can be cut so that nothing after the cut changes how the text before
/// it renders: after a whole word, outside any inline construct still open (code, emphasis, strong,
/// strikethrough, a link's text or target).
///
/// Rows of that prefix but its last are final (a greedy wrap never moves a word back up once the
/// next one went down), so they can be printed for good while the line streams. Past an open
/// construct they are not: its markers vanish when it closes (a link's target can take a row), and a
/// word would move back up. An opener misread here only delays rows until the line ends.
enum SettledPrefix {
    /// The end of the longest settled prefix of `line`, nil when there is none.
    static func end(of line: String) -> String.Index? {
        points(of: line).last
    }

    /// Every place `line` can be cut, in order.
    static func points(of line: String) -> [String.Index] {
        var settled: [String.Index] = []
        var codeRun = 0
        var strong = false
        var strike = false
        var emphasis: Character?
        var brackets = 0
        var inTarget = false
        var previous: Character = " "
        var index = line.startIndex
        while index < line.endIndex {
            let character = line[index]
            let next = line.index(after: index)
            let following: Character = next < line.endIndex ? line[next] : " "
            if character == "`" {
                var end = next
                while end < line.endIndex, line[end] == "`" { end = line.index(after: end) }
                let run = line.distance(from: index, to: end)
                if codeRun == 0 {
                    codeRun = run
                } else if run == codeRun {
                    codeRun = 0
                }
                previous = "`"
                index = end
                continue
            }
            if codeRun > 0 {
                index = next
                continue
            }
            switch character {
            case "\\":
                previous = following
                index = next < line.endIndex ? line.index(after: next) : next
                continue
            case "*" where following == "*", "~" where following == "~":
                if character == "*" { strong.toggle() } else { strike.toggle() }
                previous = character
                index = line.index(after: next)
                continue
            case "*", "_":
                let opens = !previous.isLetter && !previous.isNumber && !following.isWhitespace
                let closes = !previous.isWhitespace && !following.isLetter && !following.isNumber
                if emphasis == character, closes {
                    emphasis = nil
                } else if emphasis == nil, opens {
                    emphasis = character
                }
            case "[":
                brackets += 1
            case "]" where brackets > 0:
                brackets -= 1
                if following == "(" { inTarget = true }
            case ")" where inTarget:
                inTarget = false
            case " ", "\t":
                if !strong, !strike, emphasis == nil, brackets == 0, !inTarget { settled.append(index) }
            default:
                break
            }
            previous = character
            index = next
        }
        return settled
    }
}
