import Hummingbird

extension ResponseBody {
    /// This body produced in full: one buffer, which Hummingbird writes with the head in a
    /// single batch, or (when it ends with trailing headers) a body that writes the buffer and
    /// the headers. ``RequestScopeMiddleware`` gathers a body of known length before it ends
    /// the request's scope, so that the scope outlives what the body reads from it.
    public func gathered() async throws -> ResponseBody {
        let gathered = GatheredBody()
        try await write(GatheringWriter(into: gathered))
        let (buffer, trailers) = gathered.contents
        guard let trailers else { return ResponseBody(byteBuffer: buffer) }
        return ResponseBody(contentLength: buffer.readableBytes) { writer in
            try await writer.write(buffer)
            try await writer.finish(trailers)
        }
    }
}

/// What a ``GatheringWriter`` was given: it is consumed by the body it writes, so the bytes
/// are kept here.
private final class GatheredBody: @unchecked Sendable {
    // Written by one body's write, then read after it returned: never at the same time.
    var buffer = ByteBuffer()
    var trailers: HTTPFields?

    var contents: (ByteBuffer, HTTPFields?) { (buffer, trailers) }
}

/// A response body writer that keeps the bytes in memory.
private struct GatheringWriter: ResponseBodyWriter {
    let gathered: GatheredBody

    init(into gathered: GatheredBody) { self.gathered = gathered }

    mutating func write(_ buffer: ByteBuffer) async throws {
        if gathered.buffer.readableBytes == 0 {
            gathered.buffer = buffer
        } else {
            var buffer = buffer
            gathered.buffer.writeBuffer(&buffer)
        }
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {
        gathered.trailers = trailingHeaders
    }
}
