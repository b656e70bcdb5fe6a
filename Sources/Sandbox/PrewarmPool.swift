import Foundation
import Glibc
import Synchronization
import SystemCore

/// The box slots a pool refills in: a refill takes a slot only when one is idle and nobody waits
/// for one, so it never delays a request (the daemon's `WorkQueue`).
public protocol PrewarmSlots: Sendable {
  /// Runs `work` on an idle slot and returns true, or returns false at once (and never runs it)
  /// when every slot is busy or a request waits.
  func runIfIdle(_ work: @escaping @Sendable () -> Void) -> Bool
}

/// How a family's pre-warmed program is started: the spec, the launcher's files in /box, and what
/// it writes on stderr once it waits for its program.
public struct PrewarmRecipe: Sendable {
  public var spec: BoxSpec
  public var files: [BoxFile]
  public var readyMarker: Data
  /// Memory the runtime may hold above the run's limit (`PrewarmedBox.init`'s `warmUpMemoryBytes`).
  public var warmUpMemoryBytes: UInt64

  public init(spec: BoxSpec, files: [BoxFile], readyMarker: Data, warmUpMemoryBytes: UInt64 = 0) {
    self.spec = spec
    self.files = files
    self.readyMarker = readyMarker
    self.warmUpMemoryBytes = warmUpMemoryBytes
  }

  public var key: PrewarmKey { PrewarmKey(spec) }
}

/// What the pool keeps: a `PrewarmedBox`, or the tests' stand-in.
public protocol PrewarmItem: AnyObject, Sendable {
  var key: PrewarmKey { get }
  /// Still usable: its program waits for a handover.
  var isWaiting: Bool { get }
  func destroy()
}

extension PrewarmedBox: PrewarmItem {}

/// The pool's counters, for /metrics.
public struct PrewarmCounts: Sendable, Equatable {
  public var hits: UInt64 = 0
  public var misses: UInt64 = 0
  public var refills: UInt64 = 0
  public var refillFailures: UInt64 = 0
  /// Milliseconds spent making the boxes of `refills` (creation to ready marker), summed.
  public var refillMilliseconds: UInt64 = 0
  /// Boxes waiting now.
  public var ready: Int = 0

  public init() {}
}

/// Pre-warmed boxes per family (a language's run step), each taken by one request and never given
/// back. A family keeps up to its size of boxes for the recipe it was last asked for: a request
/// whose spec differs (other limits) misses, runs cold, and makes its recipe the one refilled.
/// Refills run one at a time on a thread of the pool's, each inside an idle box slot.
public final class PrewarmPool<Item: PrewarmItem>: Sendable {
  public typealias Maker = @Sendable (PrewarmRecipe) throws(SandboxError) -> Item

  private struct State {
    var ready: [String: [Item]] = [:]
    var wanted: [String: PrewarmRecipe] = [:]
    var counts: [String: PrewarmCounts] = [:]
    var stopped = false
    var refillerStarted = false
    /// Work for an idle slot once no refill is due (`runWhenIdle`), oldest first.
    var background: [@Sendable () -> Void] = []
    /// Background work queued or running.
    var backgroundPending = 0
  }

  /// Background work waiting at most; more drops the oldest (it is only ever a saving).
  static var maximumBackground: Int { 16 }

  public let sizes: [String: Int]
  private let slots: any PrewarmSlots
  private let make: Maker
  private let state = Mutex(State())
  private let wake = DispatchSemaphore(value: 0)
  private let finished = DispatchSemaphore(value: 0)
  /// How long the refiller waits before it asks for an idle slot again.
  private let retryMilliseconds: Int

  /// A pool keeping `sizes[family]` boxes per family (families at 0 are off), refilled in `slots`.
  /// `start` starts the refiller.
  public init(
    sizes: [String: Int], slots: any PrewarmSlots, retryMilliseconds: Int = 20, make: @escaping Maker
  ) {
    self.sizes = sizes.filter { $0.value > 0 }
    self.slots = slots
    self.make = make
    self.retryMilliseconds = retryMilliseconds
  }

  /// Whether `family` has a pool at all.
  public func serves(_ family: String) -> Bool { sizes[family] != nil }

  /// Starts the refiller thread (once).
  public func start() {
    let starts = state.withLock { state -> Bool in
      defer { state.refillerStarted = true }
      return !state.refillerStarted && !state.stopped
    }
    guard starts else { return }
    let thread = Thread { [self] in refillLoop() }
    thread.name = "dsa-run-prewarm"
    thread.start()
  }

  /// Asks for `recipe`'s boxes in `family` ahead of any request (the daemon's start).
  public func want(_ recipe: PrewarmRecipe, family: String) {
    guard serves(family) else { return }
    let discarded = state.withLock { state -> [Item] in
      state.wanted[family] = recipe
      return Self.dropOthers(of: family, keeping: recipe.key, in: &state)
    }
    for item in discarded { item.destroy() }
    wake.signal()
  }

  /// Runs `work` in an idle box slot when no refill is due, on the refiller's turn (after the
  /// pool's own refills; dropped if the pool stops first or too much waits).
  public func runWhenIdle(_ work: @escaping @Sendable () -> Void) {
    let counted: @Sendable () -> Void = { [self] in
      work()
      state.withLock { $0.backgroundPending -= 1 }
    }
    state.withLock { state in
      guard !state.stopped else { return }
      state.background.append(counted)
      state.backgroundPending += 1
      if state.background.count > Self.maximumBackground {
        state.background.removeFirst()
        state.backgroundPending -= 1
      }
    }
    wake.signal()
  }

  /// Background work (`runWhenIdle`) queued or running.
  public var backgroundPending: Int { state.withLock { $0.backgroundPending } }

  /// A waiting box for `recipe`, counted as a hit, or nil at once (a miss: the caller runs cold;
  /// the pool is refilled for this recipe in the background). Never waits for a refill.
  public func take(_ recipe: PrewarmRecipe, family: String) -> Item? {
    guard serves(family) else { return nil }
    let key = recipe.key
    var dead: [Item] = []
    let found = state.withLock { state -> Item? in
      var found: Item?
      while let item = state.ready[family]?.first(where: { $0.key == key }) {
        state.ready[family]?.removeAll { $0 === item }
        if item.isWaiting {
          found = item
          break
        }
        dead.append(item)
      }
      if found != nil {
        state.counts[family, default: PrewarmCounts()].hits += 1
      } else {
        state.counts[family, default: PrewarmCounts()].misses += 1
      }
      state.wanted[family] = recipe
      dead += Self.dropOthers(of: family, keeping: key, in: &state)
      return found
    }
    for item in dead { item.destroy() }
    wake.signal()
    return found
  }

  /// The counters of each family with a pool.
  public var counts: [String: PrewarmCounts] {
    state.withLock { state in
      var all: [String: PrewarmCounts] = [:]
      for family in sizes.keys {
        var counts = state.counts[family] ?? PrewarmCounts()
        counts.ready = state.ready[family]?.count ?? 0
        all[family] = counts
      }
      return all
    }
  }

  /// Stops the refiller (waiting for a refill under way) and destroys every waiting box.
  public func drain() {
    let wasRunning = state.withLock { state -> Bool in
      defer { state.stopped = true }
      return !state.stopped && state.refillerStarted
    }
    if wasRunning {
      wake.signal()
      finished.wait()
    }
    let items = state.withLock { state -> [Item] in
      defer {
        state.ready = [:]
        state.backgroundPending -= state.background.count
        state.background = []
      }
      return state.ready.values.flatMap { $0 }
    }
    for item in items { item.destroy() }
  }

  private static func dropOthers(of family: String, keeping key: PrewarmKey, in state: inout State) -> [Item] {
    let others = state.ready[family]?.filter { $0.key != key } ?? []
    state.ready[family]?.removeAll { $0.key != key }
    return others
  }

  /// The next family short of its size, with the recipe it wants.
  private func nextRefill() -> (String, PrewarmRecipe)? {
    state.withLock { state in
      for (family, size) in sizes.sorted(by: { $0.key < $1.key }) {
        guard let recipe = state.wanted[family] else { continue }
        if (state.ready[family]?.count ?? 0) < size { return (family, recipe) }
      }
      return nil
    }
  }

  private func refillLoop() {
    defer { finished.signal() }
    while !state.withLock({ $0.stopped }) {
      guard let (family, recipe) = nextRefill() else {
        guard let work = state.withLock({ $0.background.isEmpty ? nil : $0.background.removeFirst() }) else {
          wake.wait()
          continue
        }
        // Not waited for: the next refill may take another idle slot beside it.
        guard slots.runIfIdle(work) else {
          state.withLock { $0.background.insert(work, at: 0) }
          _ = wake.wait(timeout: .now() + .milliseconds(retryMilliseconds))
          continue
        }
        continue
      }
      let done = DispatchSemaphore(value: 0)
      let made = Mutex<Result<Item, SandboxError>?>(nil)
      let make = self.make
      let started = monotonicMilliseconds()
      let ran = slots.runIfIdle {
        let result: Result<Item, SandboxError>
        do throws(SandboxError) {
          result = .success(try make(recipe))
        } catch {
          result = .failure(error)
        }
        made.withLock { $0 = result }
        done.signal()
      }
      guard ran else {
        _ = wake.wait(timeout: .now() + .milliseconds(retryMilliseconds))
        continue
      }
      done.wait()
      let elapsed = monotonicMilliseconds() - started
      switch made.withLock({ $0 }) {
      case .success(let item)?:
        let kept = state.withLock { state -> Bool in
          state.counts[family, default: PrewarmCounts()].refills += 1
          state.counts[family, default: PrewarmCounts()].refillMilliseconds += elapsed
          guard !state.stopped, state.wanted[family]?.key == item.key else { return false }
          state.ready[family, default: []].append(item)
          return true
        }
        if !kept { item.destroy() }
      default:
        state.withLock { $0.counts[family, default: PrewarmCounts()].refillFailures += 1 }
        // A recipe that cannot start is not retried in a tight loop.
        _ = wake.wait(timeout: .now() + .seconds(1))
      }
    }
  }
}
