extension StringProtocol {
    /// Without the white space (spaces, tabs, line ends, Unicode spaces) at either end: what people paste
    /// around an address or a fingerprint.
    var trimmedOfWhitespace: SubSequence {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace })
        else { return self[endIndex...] }
        return self[first...last]
    }
}
