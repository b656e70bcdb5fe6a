import Wire

/// One step of an algorithm (DESIGN §6): a JSON object of fields, plus, for expected steps, a
/// caption that explains it to a learner.
public struct Step: Sendable, Hashable {
  /// The step's fields (`action`, `active`, `array`...), without `caption`.
  public var fields: [String: JSONValue]
  /// What the step means ("5 is larger than 2, so shift it right."); nil for a learner's step.
  public var caption: String?
  /// What kind of step it is, in words that hold none of the input ("a comparison"): set by the
  /// reference recorders; nil for steps from a file, whose kind comes from their action.
  public var kind: String?
  /// The caption without the input's values ("Compare the item being inserted with the one before
  /// it..."), which a hidden test may show: the same for every step of its recorder and action.
  /// Set by the reference recorders; nil for steps from a file (an author's caption may name the data).
  public var genericCaption: String?

  public init(_ fields: [String: JSONValue], caption: String? = nil, kind: String? = nil, genericCaption: String? = nil)
  {
    self.fields = fields
    self.caption = caption
    self.kind = kind
    self.genericCaption = genericCaption
  }

  /// The step as a JSON object, caption included when there is one.
  public var object: JSONValue {
    var all = fields
    if let caption { all["caption"] = .string(caption) }
    return .object(all)
  }

  /// The step as a step line, `@step {...}`, the form learners print and expected-step files hold.
  public var line: String { StepParser.prefix + object.json }

  /// Only the named fields (a field absent from the step is left out).
  public func projected(on names: [String]) -> JSONValue {
    var kept: [String: JSONValue] = [:]
    for name in names { kept[name] = fields[name] }
    return .object(kept)
  }

  /// `kind`, else the kind its action names in `StepKind`'s fixed vocabulary.
  public var dataFreeKind: String { kind ?? StepKind(action: fields["action"]).phrase }

  /// `genericCaption`, else a sentence its action names in `StepKind`'s fixed vocabulary: never the
  /// author's caption or any field's value.
  public var dataFreeCaption: String { genericCaption ?? StepKind(action: fields["action"]).caption }
}

/// The kinds of step a data-free caption can name, by the `action` words the recorders and the
/// sample challenges use. Only these fixed phrases are ever shown for a hidden test's step: an
/// action outside the vocabulary (which an author may have written with data in it) is "a step".
public enum StepKind: String, Sendable, CaseIterable {
  case compare, swap, done, merge, pivot, place, settle, relax, visit, probe, insert, shift, push, pop, enqueue
  case dequeue, split, partition
  // The recorder's array and graph forms, and the step shapes of docs/challenges.md ("Step shapes").
  case overwrite, discover, relink, rotate, fill, union, find, resize, hash, roll, advance
  case pushFront = "push_front"
  case pushBack = "push_back"
  case popFront = "pop_front"
  case popBack = "pop_back"
  case other

  /// The kind of a step whose `action` field is this value.
  public init(action: JSONValue?) {
    guard case .string(let word)? = action, let known = StepKind(rawValue: word.lowercased()), known != .other else {
      self = .other
      return
    }
    self = known
  }

  /// "a comparison".
  public var phrase: String {
    switch self {
    case .compare: return "a comparison"
    case .swap: return "a swap"
    case .done: return "the final step"
    case .merge: return "a merge"
    case .pivot: return "a pivot choice"
    case .place: return "placing a pivot"
    case .settle: return "settling a node"
    case .relax: return "an edge relaxation"
    case .visit: return "a visit to a node"
    case .probe: return "a probe"
    case .insert: return "an insertion"
    case .shift: return "a shift"
    case .push: return "a push"
    case .pop: return "a pop"
    case .enqueue: return "an enqueue"
    case .dequeue: return "a dequeue"
    case .split: return "a split"
    case .partition: return "a partition"
    case .overwrite: return "a write"
    case .discover: return "a node's discovery"
    case .relink: return "a change of links"
    case .rotate: return "a rotation"
    case .fill: return "filling a cell"
    case .union: return "a union"
    case .find: return "a find"
    case .resize: return "a resize"
    case .hash: return "hashing a key"
    case .roll: return "rolling the hash"
    case .advance: return "moving the window"
    case .pushFront: return "a push at the front"
    case .pushBack: return "a push at the back"
    case .popFront: return "a pop from the front"
    case .popBack: return "a pop from the back"
    case .other: return "a step"
    }
  }

  /// What such a step does, in general terms.
  public var caption: String {
    switch self {
    case .compare: return "Compare two items."
    case .swap: return "Swap two items."
    case .done: return "The algorithm is done."
    case .merge: return "Merge two sorted runs into one."
    case .pivot: return "Choose the pivot of a range."
    case .place: return "Put the pivot in its final place."
    case .settle: return "Settle the unsettled node with the smallest known distance."
    case .relax: return "Try an edge: keep the shorter of the known distance and the one through it."
    case .visit: return "Visit a node."
    case .probe: return "Look at the middle item of the range."
    case .insert: return "Insert an item."
    case .shift: return "Shift an item."
    case .push: return "Push an item."
    case .pop: return "Pop an item."
    case .enqueue: return "Put an item in the queue."
    case .dequeue: return "Take an item from the queue."
    case .split: return "Split a range in two."
    case .partition: return "Partition a range."
    case .overwrite: return "Write a value into a slot."
    case .discover: return "Discover a node: it joins the frontier."
    case .relink: return "Change where a node's links point."
    case .rotate: return "Rotate a subtree to restore balance."
    case .fill: return "Fill a cell of the table from the cells it reads."
    case .union: return "Join two sets under one root."
    case .find: return "Find the root of an item's set."
    case .resize: return "Grow or shrink the storage."
    case .hash: return "Hash a key to its bucket."
    case .roll: return "Roll the hash one character along."
    case .advance: return "Move the window along the text."
    case .pushFront: return "Push an item at the front."
    case .pushBack: return "Push an item at the back."
    case .popFront: return "Take the item at the front."
    case .popBack: return "Take the item at the back."
    case .other: return "A step of the algorithm (its own caption is not shown for a hidden test)."
    }
  }
}
