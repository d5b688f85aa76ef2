/// A value kept on the heap and shared by its copies until one of them changes it.
///
/// A streamed reply moves one ``ChatEvent`` per delta through several queues and switches; with its
/// message and usage inline the event took 592 bytes, and those copies were a fifth of the main
/// actor's time in a 20,000-delta burst. Boxed, the rarely present parts cost a pointer.
enum Boxed<Value> {
    indirect case value(Value)

    init(_ value: Value) { self = .value(value) }

    var value: Value {
        switch self {
        case .value(let value): return value
        }
    }
}

extension Boxed: Sendable where Value: Sendable {}
extension Boxed: Equatable where Value: Equatable {}
extension Boxed: Hashable where Value: Hashable {}
