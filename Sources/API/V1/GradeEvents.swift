import Challenges
import Foundation
import HTTP
import Runners
import Synchronization
import Wire

// `POST /v1/grade` with `Accept: text/event-stream` (docs/api.md, "Streamed answers"): the same
// grade as without, answered as Server-Sent Events while it happens. What is wrong before the grade
// starts (the body, the language, the limits) is the ordinary JSON answer with its status.

/// One SSE event: its name and one compact JSON object on one `data:` line (JSON text never holds
/// a raw newline, so one line always suffices).
func serverSentEvent(_ name: String, _ value: JSONValue) -> [UInt8] {
  Array("event: \(name)\ndata: ".utf8) + value.compactJSONBytes + Array("\n\n".utf8)
}

/// The head of every streamed answer.
func eventStreamHead(requestID: String) -> HTTPResponse {
  HTTPResponse(
    status: .ok,
    headers: [
      "Content-Type": "text/event-stream", "Cache-Control": "no-store", "X-Request-Id": requestID,
      // nginx and similar proxies would otherwise hold the events back until the end.
      "X-Accel-Buffering": "no",
    ])
}

extension V1API {
  /// The grade's events: the compile stage, each test in the challenge's order, then the result. A
  /// grade writes its events between its runs, never while a box slot is held for it, so a client
  /// that reads slowly slows only its own grade.
  func gradeStreamed(_ request: GradeRequest, scope: RequestScope) -> HTTPResponse {
    let started = ContinuousClock.now
    let base = scope.context
    let exposeCompileCache = configuration.exposeCompileCache
    let service = self.service
    return .streamed { writer in
      var context = base
      let order = TestEventOrder(writer: writer)
      var progress = RunService.GradeProgress()
      let compiles = request.runner.compile != nil
      // The head goes once the grade has its first slot: a full line before that is the ordinary
      // 503, as without events.
      progress.admitted = {
        guard writer.begin(eventStreamHead(requestID: base.requestID)) else { return }
        if compiles { writer.write(serverSentEvent("stage", ["stage": "compile", "state": "started"])) }
      }
      if compiles {
        progress.compiled = { compile in
          writer.write(
            serverSentEvent(
              "stage",
              [
                "stage": "compile", "state": "finished", "status": .string(compile?.status.rawValue ?? "ok"),
                "wall_ms": .number(Double(compile?.wallMilliseconds ?? 0)),
              ]))
        }
      }
      progress.testFinished = { index, grade in order.finished(index, grade) }
      var errorCode: String?
      do throws(APIError) {
        let result = try service.grade(request, context: &context, progress: progress)
        // A compile error, or a grade cut short, reports tests that never ran: they come now, in order.
        for (index, grade) in result.tests.enumerated() { order.finished(index, grade) }
        writer.write(serverSentEvent("result", result.wire(exposeCompileCache: exposeCompileCache).json))
      } catch {
        errorCode = error.code
        if writer.status == nil {
          var response = error.response
          response.headers.add(name: "X-Request-Id", value: context.requestID)
          for (name, value) in service.rateLimitHeaders(context) { response.headers.add(name: name, value: value) }
          writer.respond(response)
        } else {
          writer.write(serverSentEvent("error", ["error": .string(error.code), "message": .string(error.message)]))
        }
      }
      let status = writer.status?.code ?? 500
      service.metrics.recordRequest(route: context.route, code: status)
      service.log(
        context, method: "POST", status: status, error: errorCode,
        totalMilliseconds: RunService.milliseconds(ContinuousClock.now - started))
    }
  }
}

/// Sends `test` events in the challenge's order, whatever order the verdicts come in, each once.
private final class TestEventOrder: Sendable {
  private let writer: HTTPResponseWriter
  private let state = Mutex<(next: Int, waiting: [Int: TestGrade])>((0, [:]))

  init(writer: HTTPResponseWriter) { self.writer = writer }

  func finished(_ index: Int, _ grade: TestGrade) {
    state.withLock { state in
      guard index >= state.next, state.waiting[index] == nil else { return }
      state.waiting[index] = grade
      while let ready = state.waiting.removeValue(forKey: state.next) {
        var object: [String: JSONValue] = [:]
        if case .object(let fields) = ready.wire.json { object = fields }
        object["index"] = .number(Double(state.next))
        writer.write(serverSentEvent("test", .object(object)))
        state.next += 1
      }
    }
  }
}
