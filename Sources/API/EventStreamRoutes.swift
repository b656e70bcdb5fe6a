import Challenges
import Dispatch
import Foundation
import HTTP
import Runners
import Sandbox
import Synchronization
import Wire

// `POST /v1/execute` and `POST /v1/grade` with `Accept: text/event-stream` (docs/api.md, "Streamed
// answers"): the same work as without, on a box slot as without, answered as Server-Sent Events
// while it happens. What is wrong before the work starts (the body, the language, a full line) is
// the ordinary JSON answer with its status.

/// One SSE event: its name and one compact JSON object on one `data:` line (JSON text never holds
/// a raw newline, so one line always suffices).
func serverSentEvent(_ name: String, _ value: JSONValue) -> [UInt8] {
  Array("event: \(name)\ndata: ".utf8) + value.compactJSONBytes + Array("\n\n".utf8)
}

extension APIRouter {
  /// Whether the client asked for Server-Sent Events.
  static func wantsEventStream(_ request: HTTPRequest) -> Bool {
    request.headers.values(for: "Accept").contains { field in
      field.split(separator: ",").contains {
        $0.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() == "text/event-stream"
      }
    }
  }

  /// The head of every streamed answer.
  private static func eventStreamHead(requestID: String) -> HTTPResponse {
    HTTPResponse(
      status: .ok,
      headers: [
        "Content-Type": "text/event-stream", "Cache-Control": "no-store", "X-Request-Id": requestID,
        // nginx and similar proxies would otherwise hold the events back until the end.
        "X-Accel-Buffering": "no",
      ])
  }

  func executeStreamed(_ request: HTTPRequest, trace: inout Trace) throws(APIError) -> HTTPResponse {
    let body = try jsonBody(of: request, ExecuteBody.decode)
    let runner = try resolveRunner(language: body.language, version: body.version, trace: &trace)
    var executeRequest = try body.executeRequest(maxima: configuration.maxima, runnerLimits: runner.runLimits())
    executeRequest.runner = runner
    let stdin = [UInt8](executeRequest.stdin)
    executeRequest.stdin = Data()
    let prepared = executeRequest
    let started = ContinuousClock.now
    let baseTrace = trace
    return .streamed { [self] writer in
      var trace = baseTrace
      let input = LiveInput()
      // The whole stdin is known, but the pipe takes only so much before the program reads: a
      // thread of its own hands it over, so the run's thread is free to read the output.
      let feeder = StdinFeeder(maximumPendingBytes: max(1, stdin.count))
      if !stdin.isEmpty { _ = feeder.push(stdin) }
      feeder.finish()
      let feederThread = Thread { feeder.feed(input) }
      feederThread.name = "dsa-run sse stdin"
      feederThread.start()
      let watcher = Self.watchForDisconnect(writer) {
        feeder.stop()
        input.kill()
      }
      defer {
        watcher.cancel()
        feeder.stop()
      }
      let requestID = trace.id
      let exposeCompileCache = configuration.exposeCompileCache
      let outcome = streamInSlot(writer, trace: &trace) { () throws(ExecuteError) -> String? in
        guard writer.begin(Self.eventStreamHead(requestID: requestID)) else { return nil }
        let encoder = Mutex(LiveEventEncoder())
        let result = try self.executor.executeLive(prepared, options: LiveOptions(), input: input) { event in
          guard let (name, fields) = encoder.withLock({ $0.encode(event) }) else { return }
          if !writer.write(serverSentEvent(name, .object(fields))) {
            feeder.stop()
            input.kill()
          }
        }
        for (name, fields) in encoder.withLock({ $0.flush() }) {
          writer.write(serverSentEvent(name, .object(fields)))
        }
        writer.write(
          serverSentEvent("result", ResultEncoder.executeValue(result, exposeCompileCache: exposeCompileCache)))
        return Self.statusWord(result)
      }
      if let status = outcome {
        trace.runStatus = status
        metrics.recordRun(
          language: runner.language, status: status, seconds: Self.seconds(ContinuousClock.now - started))
      }
      logStreamed(writer, route: "/v1/execute", trace: trace, started: started)
    }
  }

  func gradeStreamed(_ request: HTTPRequest, trace: inout Trace) throws(APIError) -> HTTPResponse {
    let body = try jsonBody(of: request, GradeBody.decode)
    let runner = try resolveRunner(language: body.language, version: body.version, trace: &trace)
    let files = try body.sourceFiles()
    var challenge = try body.resolveChallenge(in: challenges)
    var inline = false
    if case .object = body.challenge { inline = true }
    challenge.limits = try configuration.maxima.challengeLimits(
      challenge.limits, runnerLimits: runner.runLimits(), inline: inline)
    let resolved = challenge
    let started = ContinuousClock.now
    let baseTrace = trace
    return .streamed { [self] writer in
      var trace = baseTrace
      let requestID = trace.id
      let exposeCompileCache = configuration.exposeCompileCache
      let grader = Grader(executor: executor)
      let outcome = streamInSlot(writer, trace: &trace) { () throws(ExecuteError) -> String? in
        guard writer.begin(Self.eventStreamHead(requestID: requestID)) else { return nil }
        let order = TestEventOrder(writer: writer)
        var options = GradeOptions(
          version: body.version, parallelism: 1, stopAtFirstFailure: body.stopAtFirstFailure ?? false,
          timeBoundMilliseconds: self.configuration.resolvedGradeWallMilliseconds, runner: runner)
        if runner.compile != nil {
          writer.write(serverSentEvent("stage", ["stage": "compile", "state": "started"]))
          options.onCompiled = { compile in
            writer.write(
              serverSentEvent(
                "stage",
                [
                  "stage": "compile", "state": "finished", "status": .string(compile?.status.rawValue ?? "ok"),
                  "wall_ms": .number(Double(compile?.wallMilliseconds ?? 0)),
                ]))
          }
        }
        options.onTestFinished = { index, grade in order.finished(index, grade) }
        let result = try grader.grade(resolved, language: body.language, files: files, options: options)
        // A compile error, or a grade cut short, reports tests that never ran: they come now, in order.
        for (index, grade) in result.tests.enumerated() { order.finished(index, grade) }
        writer.write(serverSentEvent("result", result.wire(exposeCompileCache: exposeCompileCache).json))
        self.metrics.recordGrade(
          language: runner.language, verdict: result.verdict.rawValue,
          testVerdicts: result.tests.map(\.verdict.rawValue),
          seconds: Self.seconds(ContinuousClock.now - started))
        return result.verdict.rawValue
      }
      if let verdict = outcome { trace.runStatus = verdict }
      logStreamed(writer, route: "/v1/grade", trace: trace, started: started)
    }
  }

  /// Runs `work` in a box slot; a full line is the ordinary 503, a failure once events flow is an
  /// `error` event (a sandbox failure in the operator's log, the request id in the event).
  private func streamInSlot(
    _ writer: HTTPResponseWriter, trace: inout Trace, _ work: @escaping @Sendable () throws(ExecuteError) -> String?
  ) -> String? {
    let outcome: Result<String?, ExecuteError>
    do throws(APIError) {
      outcome = try inSlot(trace: &trace, work).0
    } catch {
      var response = error.response
      response.headers.add(name: "X-Request-Id", value: trace.id)
      writer.respond(response)
      return nil
    }
    switch outcome {
    case .success(let status): return status
    case .failure(let error):
      guard writer.status != nil else { return nil }
      var apiError = APIError.from(error)
      if apiError.status == .internalServerError {
        trace.detail = trace.detail ?? "\(error)"
        apiError.message =
          "the server could not carry out this request; its operators can find why under request id \(trace.id)"
      }
      writer.write(
        serverSentEvent("error", ["error": .string(apiError.code), "message": .string(apiError.message)]))
      return nil
    }
  }

  /// The request's metrics and log line, once the streamed answer is over.
  private func logStreamed(_ writer: HTTPResponseWriter, route: String, trace: Trace, started: ContinuousClock.Instant)
  {
    let status = writer.status?.code ?? 500
    metrics.recordRequest(route: route, code: status)
    guard let sink = configuration.logSink else { return }
    sink(
      RequestLogEntry(
        id: trace.id, time: LogTime.now(), method: "POST", route: route, status: status,
        error: status == 503 ? "busy" : nil, language: trace.language, runStatus: trace.runStatus,
        queueMilliseconds: trace.queueMilliseconds, runMilliseconds: trace.runMilliseconds,
        totalMilliseconds: Self.milliseconds(ContinuousClock.now - started), detail: trace.detail))
  }

  /// Checks a few times a second whether the client is gone, so a program that prints nothing is
  /// still stopped when nobody waits for it.
  private static func watchForDisconnect(_ writer: HTTPResponseWriter, _ gone: @escaping @Sendable () -> Void)
    -> DispatchSourceTimer
  {
    let timer = DispatchSource.makeTimerSource(queue: .global())
    let fired = Atomic(false)
    timer.schedule(deadline: .now() + .milliseconds(250), repeating: .milliseconds(250))
    timer.setEventHandler {
      if writer.peerHasClosed && !fired.exchange(true, ordering: .relaxed) { gone() }
    }
    timer.resume()
    return timer
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
