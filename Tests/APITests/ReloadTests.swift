import Challenges
import Foundation
import HTTP
import Testing

@testable import API

/// What a config reload (`APIRouter.replaceSettings`) puts in effect for the next request, and what
/// it keeps: the quota a token used stays used.
@Suite struct ReloadTests {
  private static let pythonHello = #"{"language": "python", "source": "print(1)"}"#

  private func run(_ router: APIRouter, token: String, headers: [(String, String)] = []) -> HTTPResponse {
    router.handle(
      executeRequest(Self.pythonHello, headers: [("Authorization", "Bearer \(token)")] + headers))
  }

  @Test func newTokensAndMaximaAndOriginsAreInEffectAtTheNextRequest() {
    let router = makeFakeRouter { $0.bearerTokens = ["old"] }
    #expect(run(router, token: "old").status == .ok)
    let foreign = ("Origin", "https://app.example")
    #expect(run(router, token: "old", headers: [foreign]).status.code == 403)

    var settings = router.service.settings
    settings.bearerTokens = ["new"]
    settings.maxima.wallMilliseconds = 3000
    settings.crossOrigin = CrossOriginPolicy(allowedOrigins: ["https://app.example"])
    router.replaceSettings(settings)

    #expect(run(router, token: "old").status.code == 401)
    #expect(run(router, token: "new").status == .ok)
    let allowed = run(router, token: "new", headers: [foreign])
    #expect(allowed.status == .ok)
    #expect(allowed.headers["Access-Control-Allow-Origin"] == "https://app.example")
    let tooLong = router.handle(
      executeRequest(
        #"{"language": "python", "source": "print(1)", "limits": {"wall_ms": 5000}}"#,
        headers: [("Authorization", "Bearer new")]))
    #expect(tooLong.error?.message == "limits.wall_ms is 5000; the maximum is 3000")
  }

  @Test func theOpenAPIDocumentNamesTheMaximaInEffect() throws {
    let shipped = try Data(contentsOf: URL(fileURLWithPath: repositoryRoot + "/docs/openapi.json"))
    let router = makeFakeRouter { $0.openAPIDocument = shipped }
    func wallMaximum() throws -> Int? {
      let body = router.handle(request("GET", "/v1/openapi.json")).body
      let document = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
      let schemas = (document["components"] as? [String: Any])?["schemas"] as? [String: Any]
      let limits = (schemas?["Limits"] as? [String: Any])?["properties"] as? [String: Any]
      return (limits?["wall_ms"] as? [String: Any])?["maximum"] as? Int
    }
    #expect(try wallMaximum() == 20_000)
    var settings = router.service.settings
    settings.maxima.wallMilliseconds = 3000
    router.replaceSettings(settings)
    #expect(try wallMaximum() == 3000)
  }

  @Test func aTokenThatStaysKeepsWhatItUsedOfItsQuota() {
    let router = makeFakeRouter { configuration in
      configuration.bearerTokens = ["alpha", "beta"]
      configuration.rateLimit = RateLimiter.Policy(quota: 2, windowSeconds: 600)
    }
    #expect(run(router, token: "alpha").status == .ok)
    #expect(run(router, token: "alpha").status == .ok)
    #expect(run(router, token: "beta").status == .ok)
    var settings = router.service.settings
    settings.bearerTokens = ["alpha", "gamma"]
    var policy = RateLimiter.Policy(quota: 3, windowSeconds: 600)
    policy.tokenQuotas["gamma"] = 1
    settings.rateLimit = policy
    router.replaceSettings(settings)
    // alpha used 2 of its window; the new quota of 3 leaves it one, not a fresh three.
    let third = run(router, token: "alpha")
    #expect(third.status == .ok)
    #expect(third.headers["RateLimit-Policy"] == #""runs";q=3;w=600"#)
    #expect(third.headers["RateLimit"]?.hasPrefix(#""runs";r=0;t="#) == true)
    #expect(run(router, token: "alpha").status.code == 429)
    #expect(run(router, token: "gamma").status == .ok)
    #expect(run(router, token: "gamma").status.code == 429)
    #expect(run(router, token: "beta").status.code == 401)

    // Quotas off, then on again: nothing is counted meanwhile, and counting starts afresh.
    settings.rateLimit = nil
    router.replaceSettings(settings)
    #expect(run(router, token: "alpha").status == .ok)
    #expect(run(router, token: "alpha").headers["RateLimit"] == nil)
  }

  @Test func theLimiterKeepsTheCountsOfTheTokensItIsToldToKeep() {
    let limiter = RateLimiter(policy: RateLimiter.Policy(quota: 2, windowSeconds: 60))
    #expect(limiter.take(token: "kept", cost: 2, now: 0).allowed)
    #expect(limiter.take(token: "dropped", cost: 2, now: 0).allowed)
    limiter.replacePolicy(RateLimiter.Policy(quota: 2, windowSeconds: 60), keeping: ["kept"])
    #expect(!limiter.take(token: "kept", cost: 1, now: 1).allowed)
    #expect(limiter.take(token: "dropped", cost: 1, now: 1).allowed)
  }

  @Test func reloadedChallengesAreGradedByIdAndTheOldOnesAreGone() throws {
    let router = makeFakeRouter()
    #expect(router.service.challenges.ids.isEmpty)
    let challenge = try ChallengeLoader.decodeInline(
      Data(
        #"{"title": "Sum", "statement": "Add.", "checker": {"name": "tokens"}, "tests": [{"stdin": "1 2\n", "expected_stdout": "3\n"}]}"#
          .utf8),
      id: "sum"
    ).get()
    var settings = router.service.settings
    settings.challenges = ChallengeCatalog(challenges: ["sum": challenge])
    router.replaceSettings(settings)
    let listed = router.handle(request("GET", "/v1/challenges"))
    #expect(listed.text.contains(#""id":"sum""#), "\(listed.text)")
  }
}
