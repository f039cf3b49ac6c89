#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A client that sends a request over loopback and resets the connection at once, without
/// reading the answer: a client gone before the server writes its response (the server's
/// first write then fails).
public enum HangingUpClient {
    /// Sends `GET path` to 127.0.0.1:`port`, then closes the connection.
    public static func get(port: Int, path: String) throws {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw Failure(step: "socket") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(step: "connect") }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        guard send(descriptor, request, request.count, 0) == request.count else { throw Failure(step: "send") }
        // Closed with a reset, not a goodbye: the server's next write fails.
        var abort = linger(l_onoff: 1, l_linger: 0)
        guard setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &abort, socklen_t(MemoryLayout<linger>.size)) == 0 else {
            throw Failure(step: "setsockopt")
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        let step: String
        public var description: String { "hanging-up client: \(step) failed (errno \(errno))" }
    }
}
