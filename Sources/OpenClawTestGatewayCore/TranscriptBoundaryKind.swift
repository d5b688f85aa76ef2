/// A synthetic divider row a gateway shows in history (`__openclaw.kind`): where older context was
/// compacted, or where the session was reset.
public enum TranscriptBoundaryKind: Sendable, Hashable {
    /// `kind: "compaction"`, with the checkpoint's token counts when it recorded them.
    case compaction(tokensBefore: Int?, tokensAfter: Int?)
    /// `kind: "reset"`: no token counts.
    case reset
}
