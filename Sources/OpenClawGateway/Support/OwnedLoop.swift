extension Task where Success == Void, Failure == Never {
    /// Waits until this task ends, and cancels it when the waiting task is cancelled: how a component's
    /// `run()` makes the loop its `start()` made a child of the caller's task (the node host, the chat
    /// session, the approvals and questions clients).
    package func endsWithCaller() async {
        await withTaskCancellationHandler {
            await value
        } onCancel: {
            cancel()
        }
    }
}
