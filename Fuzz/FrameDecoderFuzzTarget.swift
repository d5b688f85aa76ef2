// libFuzzer entry point, compiled into the OpenClawProtocol sources by Fuzz/run (not part of the
// package build). Feeds arbitrary bytes to the frame decoder and every payload decoder behind it.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrameDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let frame = try? FrameCodec().decode(bytes) else { return 0 }
    switch frame {
    case .event(let event):
        _ = ChatEvent(frame: event)
        _ = AgentEvent(frame: event)
        _ = ShutdownEvent(json: event.payload)
        _ = ConnectChallenge(json: event.payload)
    case .response(let response):
        _ = ChatHistoryPage(json: response.payload)
        _ = HelloOk(json: response.payload)
        _ = SessionsListResult(json: response.payload)
        _ = ChatSendAck(json: response.payload)
        if let payload = response.payload { _ = JSONSerializer.string(payload) }
    case .request, .unknown:
        break
    }
    return 0
}
