/// `models.list` params: always the empty object (the schema allows no field at all).
public struct ModelsListParams: GatewayMethodParams, Hashable {
    public static let method = GatewayMethodName.modelsList

    public init() {}

    public var json: JSONValue { .object([:]) }
}
