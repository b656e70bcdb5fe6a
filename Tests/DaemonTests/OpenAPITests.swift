import API
import Challenges
import Foundation
import Runners
import Testing
import Wire

// docs/openapi.json against the implementation: the router's routes, the result encoder's keys, and the
// real answers of a live daemon, checked with a small OpenAPI 3.0 schema validator of our own.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct OpenAPITests {
  @Test func everyRouteIsDocumentedAndEveryDocumentedRouteIsServed() throws {
    let document = try openAPIDocument()
    #expect(document["openapi"] as? String == "3.0.3")
    let paths = try #require(document["paths"] as? [String: Any])
    var documented: [String: [String]] = [:]
    for (path, item) in paths {
      let methods = ((item as? [String: Any]) ?? [:]).keys.filter { httpMethods.contains($0) }
      documented[path] = methods.map { $0.uppercased() }.sorted()
    }
    #expect(documented == APIRouter.routeMethods.mapValues { $0.sorted() })
  }

  @Test func liveSubmissionAnswersMatchTheDocumentedSchemas() throws {
    let document = try openAPIDocument()
    let directory = try makeTemporaryDirectory()
    let config = try writeConfig(
      directory, ["submissions": ["webhooks": ["allow": ["127.0.0.1/32"], "tries": 1, "backoff_ms": 0]]])
    let daemon = try DaemonProcess(arguments: ["--slots", "2", "--config", config], directory: directory)
    defer { daemon.cleanUp() }
    let body: [String: Any] = ["language": "python", "source": "print('stored')"]
    #expect(validate(body, try schema(document, "SubmissionRequest"), document).isEmpty)
    // Every field the routes take, callback_url included, on an execute body and a grade body.
    let hook = "http://127.0.0.1:9/hook"
    var withCallback = body
    withCallback["callback_url"] = hook
    let grade: [String: Any] = [
      "language": "python", "source": "print(1)", "challenge": "sum-of-two", "callback_url": hook,
    ]
    for given in [withCallback, grade] {
      let problems = validate(given, try schema(document, "SubmissionRequest"), document)
      #expect(problems.isEmpty, "\(problems)")
    }
    // And nothing the routes refuse.
    var unknown = body
    unknown["network"] = true
    #expect(!validate(unknown, try schema(document, "SubmissionRequest"), document).isEmpty)
    let accepted = try post(daemon, "/v1/submissions", body)
    #expect(accepted.status == 202)
    try check(accepted, document, path: "/v1/submissions", method: "post")
    let called = try post(daemon, "/v1/submissions", withCallback)
    #expect(called.status == 202, "\(called.body)")
    try check(called, document, path: "/v1/submissions", method: "post")
    let id = try #require(accepted.json["id"] as? String)
    let done = try curl(daemon.baseURL + "/v1/submissions/\(id)?wait=20")
    #expect(done.status == 200 && done.json["status"] as? String == "done")
    try check(done, document, path: "/v1/submissions/{id}", method: "get")
    // The stored result is an ExecuteResult, valid against that schema too.
    let result = try #require(done.json["result"])
    #expect(validate(result, try schema(document, "ExecuteResult"), document).isEmpty)
    let waited = try post(daemon, "/v1/submissions?wait=20", body)
    #expect(waited.status == 200)
    try check(waited, document, path: "/v1/submissions", method: "post")

    let batch = try post(
      daemon, "/v1/submissions/batch", ["submissions": [body, ["language": "cobol", "source": "x"]]])
    #expect(batch.status == 202)
    try check(batch, document, path: "/v1/submissions/batch", method: "post")
    let missing = String(repeating: "0", count: 32)
    let list = try curl(daemon.baseURL + "/v1/submissions?ids=\(id),\(missing)")
    #expect(list.status == 200)
    try check(list, document, path: "/v1/submissions", method: "get")
    for answer in [
      try curl(daemon.baseURL + "/v1/submissions/\(missing)"), try curl(daemon.baseURL + "/v1/submissions/nope"),
    ] {
      try check(answer, document, path: "/v1/submissions/{id}", method: "get")
    }
    let finished = try curl(daemon.baseURL + "/v1/submissions/\(id)", ["-X", "DELETE"])
    #expect(finished.status == 409)
    try check(finished, document, path: "/v1/submissions/{id}", method: "delete")
    let wrongMethod = try curl(daemon.baseURL + "/v1/submissions/batch")
    #expect(wrongMethod.status == 405)
    try check(wrongMethod, document, path: "/v1/submissions/batch", method: "post")
    #expect(try daemon.stop() == 0)
  }

  @Test func resultAndErrorSchemasMatchTheEncoders() throws {
    let document = try openAPIDocument()
    let result = try schema(document, "ExecuteResult")
    #expect(Set(((result["properties"] as? [String: Any]) ?? [:]).keys) == ResultEncoder.executeKeys)
    #expect(Set((result["required"] as? [String]) ?? []) == ResultEncoder.executeKeys)
    let outcome = try schema(document, "Outcome")
    #expect(
      Set(((outcome["properties"] as? [String: Any]) ?? [:]).keys)
        == ResultEncoder.outcomeKeys.union(["time_limit_kind"]))
    #expect(Set((outcome["required"] as? [String]) ?? []) == ResultEncoder.outcomeKeys)

    let grade = try schema(document, "GradeResult")
    #expect(Set(((grade["properties"] as? [String: Any]) ?? [:]).keys) == GradeEncoder.gradeKeys)
    #expect(Set((grade["required"] as? [String]) ?? []) == GradeEncoder.gradeKeys)
    let test = try schema(document, "TestGrade")
    #expect(Set(((test["properties"] as? [String: Any]) ?? [:]).keys) == GradeEncoder.testKeys)
    // Its two forms: a visible test's figures, a hidden test's buckets and data-free difference.
    let forms = try #require(test["oneOf"] as? [[String: Any]])
    #expect(
      forms.map { Set((($0["properties"] as? [String: Any]) ?? [:]).keys) }
        == [GradeEncoder.visibleTestKeys, GradeEncoder.hiddenTestKeys])
    let visibleTest: [String: Any] = [
      "name": "a", "verdict": "wrong_answer", "score": 0.4, "points": 1, "cpu_ms": 12, "wall_ms": 30,
      "memory_kb": 9000, "message": "step 2 differs", "stderr": "", "hidden": false,
      "first_difference": ["step": 2, "expected": ["pair": [1, 2]], "actual": NSNull(), "caption": "swap 2 and 1"],
      "details": [
        "input": "2 1\n", "input_truncated": false, "expected_output": NSNull(), "expected_output_truncated": false,
        "output": "", "output_truncated": false, "last_matching_step": ["pair": [2, 1]],
      ],
    ]
    let hiddenTest: [String: Any] = [
      "name": "b", "verdict": "wrong_answer", "score": 0.25, "points": 1, "time": "under 0.1 s",
      "memory": "under 16 MiB", "message": "Wrong answer on a hidden test.", "stderr": "", "hidden": true,
      "first_difference": ["kind": "a swap", "caption": "Swap two items."],
    ]
    for object in [visibleTest, hiddenTest] {
      let problems = validate(object, test, document)
      #expect(problems.isEmpty, "\(problems) in \(object)")
    }
    // A hidden test with a figure, or a step number, is not one the schema allows.
    var leaky = hiddenTest
    leaky["cpu_ms"] = 12
    #expect(!validate(leaky, test, document).isEmpty)
    var withDetails = hiddenTest
    withDetails["details"] = visibleTest["details"]
    #expect(!validate(withDetails, test, document).isEmpty)
    leaky = hiddenTest
    leaky["first_difference"] = ["kind": "a swap", "caption": "Swap two items.", "step": 2]
    #expect(!validate(leaky, test, document).isEmpty)
    var unmarked = visibleTest
    unmarked["hidden"] = true
    #expect(!validate(unmarked, test, document).isEmpty)

    // The request schema is as strict as the decoder: a misspelt field fails both.
    let request = try schema(document, "ExecuteRequest")
    #expect(request["additionalProperties"] as? Bool == false)
    let good: [String: Any] = [
      "language": "python", "version": "3", "files": [["name": "main.py", "content": "print(1)"]], "stdin": "",
      "args": ["a"], "limits": ["cpu_ms": 1000, "wall_ms": 2000, "memory_mb": 64, "output_kb": 16, "processes": 4],
    ]
    #expect(validate(good, request, document).isEmpty)
    #expect(try decodes(good))
    for bad: [String: Any] in [
      ["language": "python", "source": "1", "limts": ["cpu_ms": 1]],
      ["language": "python", "source": "1", "limits": ["cpu": 1]],
      ["language": "python", "files": [["name": "a.py", "content": "1", "mode": "x"]]],
      ["language": "python", "source": "1", "args": "x"],
      ["source": "1"],
    ] {
      #expect(!validate(bad, request, document).isEmpty, "the schema accepts \(bad)")
      #expect(try !decodes(bad), "the decoder accepts \(bad)")
    }
    // Exactly one of files and source (the router's check after decoding).
    #expect(!validate(["language": "python"], request, document).isEmpty)
    #expect(!validate(["language": "python", "source": "1", "files": [] as [Any]], request, document).isEmpty)
  }

  @Test func liveAnswersMatchTheDocumentedSchemas() throws {
    let document = try openAPIDocument()
    let daemon = try DaemonProcess(arguments: ["--slots", "2"])
    defer { daemon.cleanUp() }

    let helloBody: [String: Any] = ["language": "python", "source": "print('hello')\nprint('@step {\"i\": 1}')"]
    #expect(validate(helloBody, try schema(document, "ExecuteRequest"), document).isEmpty)
    let hello = try execute(daemon, helloBody)
    #expect(hello.status == 200)
    try check(hello, document, path: "/v1/execute", method: "post")
    #expect(((hello.json["run"] as? [String: Any])?["stdout"] as? String)?.hasPrefix("hello\n") == true)
    #expect((hello.json["steps"] as? [Any])?.count == 1)
    // The validator sees a drift: an undocumented key, a missing one, a value outside an enum.
    let resultSchema = try schema(document, "ExecuteResult")
    var drifted = hello.json
    drifted["extra"] = 1
    var run = (drifted["run"] as? [String: Any]) ?? [:]
    run["status"] = "exploded"
    run.removeValue(forKey: "memory_kb")
    drifted["run"] = run
    #expect(validate(drifted, resultSchema, document).count == 3)

    let unknownLanguage = try execute(daemon, ["language": "cobol", "source": "x"])
    #expect(unknownLanguage.status == 400)
    try check(unknownLanguage, document, path: "/v1/execute", method: "post")
    #expect(errorCode(unknownLanguage) == "unknown_language")

    let unknownField = try execute(daemon, ["language": "python", "source": "1", "limts": [:] as [String: Any]])
    #expect(unknownField.status == 400)
    try check(unknownField, document, path: "/v1/execute", method: "post")
    #expect(errorCode(unknownField) == "unknown_field")

    let wrongType = try curl(
      daemon.baseURL + "/v1/execute", ["-X", "POST", "-H", "Content-Type: text/plain", "--data-binary", "{}"])
    #expect(wrongType.status == 415)
    try check(wrongType, document, path: "/v1/execute", method: "post")
    #expect(errorCode(wrongType) == "unsupported_media_type")

    let wrongMethod = try curl(daemon.baseURL + "/v1/execute")
    #expect(wrongMethod.status == 405)
    try check(wrongMethod, document, path: "/v1/execute", method: "post")

    let notFound = try curl(daemon.baseURL + "/v2/nothing")
    #expect(notFound.status == 404)
    try check(notFound, response: resolve(component(document, "responses", "NotFound"), document), document)
    #expect(errorCode(notFound) == "not_found")

    for path in ["/v1/runtimes", "/healthz", "/metrics", "/v1/challenges"] {
      let answer = try curl(daemon.baseURL + path)
      #expect(answer.status == 200, "\(path)")
      try check(answer, document, path: path, method: "get")
    }
    let challenge = try curl(daemon.baseURL + "/v1/challenges/two-sum-indices")
    #expect(challenge.status == 200)
    try check(challenge, document, path: "/v1/challenges/{id}", method: "get")
    let noChallenge = try curl(daemon.baseURL + "/v1/challenges/nothing-here")
    #expect(noChallenge.status == 404)
    try check(noChallenge, document, path: "/v1/challenges/{id}", method: "get")

    let gradeBody: [String: Any] = [
      "language": "python", "source": "def two_sum(nums, target):\n    return []\n", "challenge": "two-sum-indices",
      "stop_at_first_failure": true,
    ]
    #expect(validate(gradeBody, try schema(document, "GradeRequest"), document).isEmpty)
    let data = try JSONSerialization.data(withJSONObject: gradeBody)
    let grade = try curl(
      daemon.baseURL + "/v1/grade",
      ["-X", "POST", "-H", "Content-Type: application/json", "--data-binary", String(decoding: data, as: UTF8.self)],
      timeout: 120)
    #expect(grade.status == 200)
    #expect(grade.json["verdict"] as? String == "wrong_answer")
    try check(grade, document, path: "/v1/grade", method: "post")
    #expect(try daemon.stop() == 0)
  }

  @Test(.enabled(if: schemathesisAvailable, "schemathesis is not importable by /usr/bin/python3"))
  func schemathesisFindsNoServerErrorsOrSchemaViolations() throws {
    let daemon = try DaemonProcess(arguments: ["--slots", "2"])
    defer { daemon.cleanUp() }
    let finished = try runProcess(
      "/usr/bin/python3",
      [
        "-m", "schemathesis", "run", repositoryRoot + "/docs/openapi.json", "--base-url", daemon.baseURL,
        "--hypothesis-max-examples", "20", "--checks", "not_a_server_error,response_schema_conformance",
      ],
      timeout: .seconds(150))
    #expect(finished.status == 0, "schemathesis: \(finished.stdout)\n\(finished.stderr)")
    #expect(try daemon.stop() == 0)
  }
}

private let httpMethods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

private let schemathesisAvailable: Bool = {
  (try? runProcess("/usr/bin/python3", ["-m", "schemathesis", "--version"], timeout: .seconds(30)))?.status == 0
}()

private func openAPIDocument() throws -> [String: Any] {
  let data = try Data(contentsOf: URL(fileURLWithPath: repositoryRoot + "/docs/openapi.json"))
  guard let document = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
    throw TestFailure("docs/openapi.json is not a JSON object")
  }
  return document
}

private func component(_ document: [String: Any], _ kind: String, _ name: String) throws -> [String: Any] {
  guard let components = document["components"] as? [String: Any], let group = components[kind] as? [String: Any],
    let object = group[name] as? [String: Any]
  else { throw TestFailure("no components.\(kind).\(name)") }
  return object
}

private func schema(_ document: [String: Any], _ name: String) throws -> [String: Any] {
  try component(document, "schemas", name)
}

/// The object a local `$ref` ("#/components/...") names, or `object` itself.
private func resolve(_ object: [String: Any], _ document: [String: Any]) throws -> [String: Any] {
  guard let reference = object["$ref"] as? String else { return object }
  guard reference.hasPrefix("#/") else { throw TestFailure("non-local $ref \(reference)") }
  var current: Any = document
  for part in reference.dropFirst(2).split(separator: "/") {
    guard let next = (current as? [String: Any])?[String(part)] else { throw TestFailure("dangling $ref \(reference)") }
    current = next
  }
  guard let target = current as? [String: Any] else { throw TestFailure("$ref \(reference) is not an object") }
  return try resolve(target, document)
}

/// Checks an answer against the documented response for its status on `method path`.
private func check(_ answer: CurlResponse, _ document: [String: Any], path: String, method: String) throws {
  guard let item = (document["paths"] as? [String: Any])?[path] as? [String: Any],
    let operation = item[method] as? [String: Any], let responses = operation["responses"] as? [String: Any]
  else { throw TestFailure("\(method) \(path) is not documented") }
  guard let response = responses[String(answer.status)] as? [String: Any] else {
    Issue.record("\(method) \(path) answered \(answer.status), which is not documented")
    return
  }
  try check(answer, response: resolve(response, document), document, context: "\(method) \(path)")
}

/// Checks status-independent parts: the documented headers are sent (unless marked not required), the media type is documented, and
/// a JSON body is valid against its schema.
private func check(
  _ answer: CurlResponse, response: [String: Any], _ document: [String: Any], context: String = ""
) throws {
  for (name, given) in (response["headers"] as? [String: Any]) ?? [:] {
    // A header marked "required": false (RateLimit, sent only with rate_limit configured) may be absent.
    if try resolve((given as? [String: Any]) ?? [:], document)["required"] as? Bool == false { continue }
    #expect(answer.headers[name.lowercased()] != nil, "\(context) \(answer.status) lacks the header \(name)")
  }
  let content = (response["content"] as? [String: Any]) ?? [:]
  let mediaType = answer.headers["content-type"]?.split(separator: ";").first.map {
    $0.trimmingCharacters(in: .whitespaces)
  }
  guard let mediaType, let entry = content[mediaType] as? [String: Any] else {
    Issue.record(
      "\(context) \(answer.status) has Content-Type \(answer.headers["content-type"] ?? "none"), not one of \(content.keys.sorted())"
    )
    return
  }
  let bodySchema = try resolve((entry["schema"] as? [String: Any]) ?? [:], document)
  guard mediaType == "application/json" else {
    #expect(validate(answer.body, bodySchema, document).isEmpty)
    return
  }
  guard let body = try? JSONSerialization.jsonObject(with: Data(answer.body.utf8), options: .fragmentsAllowed) else {
    Issue.record("\(context) \(answer.status) body is not JSON: \(answer.body)")
    return
  }
  let problems = validate(body, bodySchema, document)
  #expect(problems.isEmpty, "\(context) \(answer.status): \(problems.joined(separator: "; ")) in \(answer.body)")
}

private func errorCode(_ answer: CurlResponse) -> String? {
  (answer.json["error"] as? [String: Any])?["code"] as? String
}

/// Whether the server's decoder takes `body` (the unknown-field and type checks; not the files/source rule).
private func decodes(_ body: [String: Any]) throws -> Bool {
  (try? ExecuteBody.decode(try JSONSerialization.data(withJSONObject: body))) != nil
}

/// The JSON type of a value from JSONSerialization: "null", "boolean", "integer", "number", "string",
/// "array" or "object". Booleans are NSNumbers of objCType "c", so they are told apart by that.
private func jsonType(_ value: Any) -> String {
  switch value {
  case is NSNull: return "null"
  case is String: return "string"
  case is [Any]: return "array"
  case is [String: Any]: return "object"
  case let number as NSNumber:
    if String(cString: number.objCType) == "c" { return "boolean" }
    let double = number.doubleValue
    return double.rounded() == double ? "integer" : "number"
  default: return "unknown \(type(of: value))"
  }
}

private func jsonEqual(_ left: Any, _ right: Any) -> Bool {
  let kind = jsonType(left)
  guard kind == jsonType(right) else { return false }
  switch kind {
  case "null": return true
  case "string": return left as? String == right as? String
  case "boolean", "integer", "number": return (left as? NSNumber)?.isEqual(right as? NSNumber) == true
  default: return false
  }
}

/// The problems of `value` against an OpenAPI 3.0 schema: `$ref`, `allOf`, `oneOf`, `type`, `nullable`,
/// `enum`, `required`, `properties`, `additionalProperties` (false or a schema), `items`, `minItems` and
/// `minimum`; empty when it is valid.
private func validate(_ value: Any, _ given: [String: Any], _ document: [String: Any], at path: String = "$")
  -> [String]
{
  let schema: [String: Any]
  do {
    schema = try resolve(given, document)
  } catch {
    return ["\(path): \(error)"]
  }
  let kind = jsonType(value)
  if kind == "null" {
    return schema["nullable"] as? Bool == true ? [] : ["\(path): null where the schema is not nullable"]
  }
  var problems: [String] = []
  for part in (schema["allOf"] as? [[String: Any]]) ?? [] {
    problems += validate(value, part, document, at: path)
  }
  if let choices = schema["oneOf"] as? [[String: Any]] {
    let matching = choices.filter { validate(value, $0, document, at: path).isEmpty }.count
    if matching != 1 { problems.append("\(path): matches \(matching) of the oneOf choices, not exactly one") }
  }
  if let type = schema["type"] as? String, type != kind, !(type == "number" && kind == "integer") {
    return problems + ["\(path): \(kind) where the schema wants \(type)"]
  }
  if let choices = schema["enum"] as? [Any], !choices.contains(where: { jsonEqual($0, value) }) {
    problems.append("\(path): \(value) is not one of \(choices)")
  }
  if let minimum = (schema["minimum"] as? NSNumber)?.doubleValue, let number = (value as? NSNumber)?.doubleValue,
    number < minimum
  {
    problems.append("\(path): \(number) is below the minimum \(minimum)")
  }
  if let array = value as? [Any] {
    if let minimum = schema["minItems"] as? Int, array.count < minimum {
      problems.append("\(path): \(array.count) items, fewer than \(minimum)")
    }
    if let items = schema["items"] as? [String: Any] {
      for (index, element) in array.enumerated() {
        problems += validate(element, items, document, at: "\(path)[\(index)]")
      }
    }
  }
  if let object = value as? [String: Any] {
    let properties = (schema["properties"] as? [String: Any]) ?? [:]
    for name in (schema["required"] as? [String]) ?? [] where object[name] == nil {
      problems.append("\(path): missing required \"\(name)\"")
    }
    for (name, member) in object.sorted(by: { $0.key < $1.key }) {
      if let property = properties[name] as? [String: Any] {
        problems += validate(member, property, document, at: "\(path).\(name)")
      } else if schema["additionalProperties"] as? Bool == false {
        problems.append("\(path): \"\(name)\" is not a documented property")
      } else if let additional = schema["additionalProperties"] as? [String: Any] {
        problems += validate(member, additional, document, at: "\(path).\(name)")
      }
    }
  }
  return problems
}
