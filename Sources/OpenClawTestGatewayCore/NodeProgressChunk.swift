/// One `node.invoke.progress` chunk the test gateway took from a node.
public struct NodeProgressChunk: Sendable, Hashable {
    public var seq: Int
    public var chunk: String

    public init(seq: Int, chunk: String) {
        self.seq = seq
        self.chunk = chunk
    }
}
