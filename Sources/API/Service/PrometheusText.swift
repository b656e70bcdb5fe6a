/// The Prometheus text exposition format (version 0.0.4), written one metric family at a time: the
/// one writer behind `/metrics`, so every family has its HELP and TYPE lines, escaped labels and the
/// same number format.
public struct PrometheusText: Sendable {
  public private(set) var text = ""

  public init() {}

  /// A gauge without labels.
  public mutating func gauge(_ name: String, help: String, _ value: Double) {
    head(name, help: help, type: "gauge")
    text += "\(name) \(Self.format(value))\n"
  }

  /// A gauge family: one sample per label set, in the order given; `labels` names them.
  public mutating func gauges(_ name: String, help: String, labels: [String], _ samples: [([String], Double)]) {
    head(name, help: help, type: "gauge")
    for (values, value) in samples {
      let pairs = zip(labels, values).map { "\($0)=\"\(Self.escape($1))\"" }.joined(separator: ",")
      text += "\(name){\(pairs)} \(Self.format(value))\n"
    }
  }

  /// A counter without labels.
  public mutating func counter(_ name: String, help: String, _ value: UInt64) {
    head(name, help: help, type: "counter")
    text += "\(name) \(value)\n"
  }

  /// A counter family: one sample per label set, in the order given; `labels` names them.
  public mutating func counters(_ name: String, help: String, labels: [String], _ samples: [([String], UInt64)]) {
    head(name, help: help, type: "counter")
    for (values, count) in samples {
      let pairs = zip(labels, values).map { "\($0)=\"\(Self.escape($1))\"" }.joined(separator: ",")
      text += "\(name){\(pairs)} \(count)\n"
    }
  }

  /// A histogram; `bucketCounts` holds each observation in its first bucket only, and the
  /// exposition sums them (its buckets are cumulative).
  public mutating func histogram(
    _ name: String, help: String, bounds: [Double], bucketCounts: [UInt64], count: UInt64, sum: Double
  ) {
    head(name, help: help, type: "histogram")
    var cumulative: UInt64 = 0
    for (index, bound) in bounds.enumerated() {
      cumulative += bucketCounts[index]
      text += "\(name)_bucket{le=\"\(Self.format(bound))\"} \(cumulative)\n"
    }
    text += "\(name)_bucket{le=\"+Inf\"} \(count)\n"
    text += "\(name)_sum \(Self.format(sum))\n"
    text += "\(name)_count \(count)\n"
  }

  private mutating func head(_ name: String, help: String, type: String) {
    text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
  }

  /// Whole numbers without a fraction, others as Swift prints a Double.
  static func format(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
  }

  /// Label values escape backslash, double quote and line feed (the exposition format's rule).
  static func escape(_ value: String) -> String {
    var escaped = ""
    for character in value {
      switch character {
      case "\\": escaped += "\\\\"
      case "\"": escaped += "\\\""
      case "\n": escaped += "\\n"
      default: escaped.append(character)
      }
    }
    return escaped
  }
}
