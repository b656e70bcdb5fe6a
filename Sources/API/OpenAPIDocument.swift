import Foundation
import Grading
import Wire

/// `GET /v1/openapi.json`: docs/openapi.json as this daemon enforces it. The shipped document cannot
/// know which languages are installed or which maxima the operator configured, so the served copy
/// names them: `language` is an enum of the installed languages' names and aliases, and every limit
/// has its `maximum`. A client generator or schemathesis then sees exactly what a request may hold.
public enum OpenAPIDocument {
  /// The request schemas that carry a `language`.
  static let requestSchemas = ["ExecuteRequest", "GradeRequest"]

  /// `document` (the shipped JSON) with `languages` and `maxima` filled in; nil when it is not the
  /// document this code knows (a malformed or foreign file), which the caller reports at start.
  public static func specialized(_ document: Data, languages: [String], maxima: LimitMaxima) -> Data? {
    guard case .object(var root)? = try? JSONDecoder().decode(JSONValue.self, from: document),
      case .object(var components)? = root["components"], case .object(var schemas)? = components["schemas"]
    else { return nil }
    for name in requestSchemas {
      guard case .object(var schema)? = schemas[name], case .object(var properties)? = schema["properties"],
        case .object(var language)? = properties["language"]
      else { return nil }
      language["enum"] = .array(languages.sorted().map(JSONValue.string))
      properties["language"] = .object(language)
      schema["properties"] = .object(properties)
      schemas[name] = .object(schema)
    }
    guard case .object(var limits)? = schemas["Limits"], case .object(var properties)? = limits["properties"] else {
      return nil
    }
    let maximumByKey: [String: UInt64] = [
      "cpu_ms": maxima.cpuMilliseconds, "wall_ms": maxima.wallMilliseconds, "memory_mb": maxima.memoryMegabytes,
      "output_kb": maxima.outputKilobytes, "processes": maxima.processes,
    ]
    for (key, maximum) in maximumByKey {
      guard case .object(var property)? = properties[key] else { return nil }
      property["maximum"] = .number(Double(maximum))
      properties[key] = .object(property)
    }
    limits["properties"] = .object(properties)
    schemas["Limits"] = .object(limits)
    components["schemas"] = .object(schemas)
    root["components"] = .object(components)
    return Data(JSONValue.object(root).compactJSONBytes)
  }
}
