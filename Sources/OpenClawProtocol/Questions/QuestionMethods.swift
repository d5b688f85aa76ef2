/// The question methods as typed calls (``GatewayMethod``), all under `operator.questions`.
extension QuestionResolveParams: GatewayMethod {
    /// The answer as the gateway sent it: how the question closed is read from it by the caller, which
    /// knows what it sent.
    public typealias Response = JSONValue
    public static let access = GatewayMethodAccess.operatorScope(OperatorScope.questions)
    public func response(from payload: JSONValue?) -> JSONValue? { payload ?? .null }
}

extension QuestionGetParams: GatewayMethod {
    public static let access = GatewayMethodAccess.operatorScope(OperatorScope.questions)
    public func response(from payload: JSONValue?) -> QuestionRecord? {
        QuestionRecord(json: payload?["question"])
    }
}

/// `question.list {}`: the questions the gateway holds, as the raw items of its answer.
public struct QuestionListParams: GatewayMethod, Hashable {
    public typealias Response = [JSONValue]
    public static let method = QuestionNames.listMethod
    public static let access = GatewayMethodAccess.operatorScope(OperatorScope.questions)

    public init() {}

    public var json: JSONValue { .object([:]) }

    public func response(from payload: JSONValue?) -> [JSONValue]? { payload?["questions"]?.arrayValue }
}
