#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A detached POSIX thread for work that blocks for long (a terminal read, a pipe, a file copy): what
/// Foundation's `Thread` was used for, which needs corelibs Foundation.
package enum DetachedThread {
    /// Starts `work` on a new thread; false when none could be made (the process is at its limit).
    /// `name` is for debuggers, on Apple platforms only: the Swift overlay of Glibc has no
    /// `pthread_setname_np`, and Linux refuses names over 15 bytes anyway (so Foundation's `Thread`
    /// never set the one name used here, "openclaw-signals", on Linux either).
    @discardableResult
    package static func start(
        name: String? = nil, stackSize: Int? = nil, _ work: @escaping @Sendable () -> Void
    ) -> Bool {
        let box = Unmanaged.passRetained(Work(name: name, body: work)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        #if canImport(Darwin)
            var thread: pthread_t?
        #else
            var thread = pthread_t()
        #endif
        let started = pthread_create(
            &thread, &attributes,
            { argument in
                // Non-optional on Darwin, optional on Glibc: promoted to optional either way.
                DetachedThread.run(argument)
                return nil
            }, box)
        guard started == 0 else {
            Unmanaged<Work>.fromOpaque(box).release()
            return false
        }
        return true
    }

    private static func run(_ argument: UnsafeMutableRawPointer?) {
        guard let argument else { return }
        let work = Unmanaged<Work>.fromOpaque(argument).takeRetainedValue()
        #if canImport(Darwin)
            if let name = work.name { _ = pthread_setname_np(name) }
        #endif
        work.body()
    }

    private final class Work: Sendable {
        let name: String?
        let body: @Sendable () -> Void
        init(name: String?, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }
}
