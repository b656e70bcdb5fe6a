/// Header (or trailer) fields in the order they arrived, looked up by name without regard to case.
///
/// Order and repetition are kept because HTTP gives them meaning (`Connection: a` then
/// `Connection: b` is one list), and a server that logs or forwards fields should see what came.
public struct HTTPHeaders: RandomAccessCollection, ExpressibleByDictionaryLiteral, Sendable, Equatable {
  private struct Field: Sendable, Equatable {
    var name: String
    var value: String
  }

  private var fields: [Field] = []

  /// No fields.
  public init() {}

  /// The fields in this order; names keep their spelling.
  public init(_ fields: [(name: String, value: String)]) {
    self.fields = fields.map { Field(name: $0.name, value: $0.value) }
  }

  /// Fields from a literal, in the literal's order (a dictionary literal keeps its order and may repeat a key).
  public init(dictionaryLiteral elements: (String, String)...) {
    fields = elements.map { Field(name: $0.0, value: $0.1) }
  }

  /// The index of the first field.
  public var startIndex: Int { fields.startIndex }

  /// One past the index of the last field.
  public var endIndex: Int { fields.endIndex }

  /// The field at `position`, as received.
  public subscript(position: Int) -> (name: String, value: String) {
    (fields[position].name, fields[position].value)
  }

  /// The value of the first field called `name` (any case), or nil.
  public subscript(name: String) -> String? {
    fields.first { ASCII.equalsIgnoringCase($0.name, name) }?.value
  }

  /// Every value of the fields called `name` (any case), in order.
  public func values(for name: String) -> [String] {
    fields.compactMap { ASCII.equalsIgnoringCase($0.name, name) ? $0.value : nil }
  }

  /// Appends a field, keeping any existing ones with the same name.
  public mutating func add(name: String, value: String) {
    fields.append(Field(name: name, value: value))
  }

  /// Removes every field called `name` (any case).
  public mutating func remove(name: String) {
    fields.removeAll { ASCII.equalsIgnoringCase($0.name, name) }
  }

  /// Whether a list field (`Connection`, `Expect`...) holds `element`, compared without regard to case.
  public func listContains(_ element: String, for name: String) -> Bool {
    values(for: name).contains { value in
      ASCII.listElements(value).contains { ASCII.equalsIgnoringCase($0, element) }
    }
  }
}
