import Foundation
import HTTP
import Testing

@testable import API

/// Per-token run quotas: the RateLimit fields, 429 with Retry-After, and what is (not) counted.
@Suite struct RateLimitTests {
  private func limitedRouter() -> APIRouter {
    makeFakeRouter { configuration in
      configuration.bearerTokens = ["alpha", "beta"]
      var policy = RateLimiter.Policy(quota: 2, windowSeconds: 60)
      policy.tokenQuotas["beta"] = 5
      configuration.rateLimit = policy
    }
  }

  private func run(_ router: APIRouter, token: String) -> HTTPResponse {
    router.handle(
      executeRequest(
        #"{"language": "python", "source": "print(1)"}"#, headers: [("Authorization", "Bearer \(token)")]))
  }

  @Test func aTokenPastItsQuotaIs429WithRetryAfterAndTheOthersGoOn() {
    let router = limitedRouter()
    let first = run(router, token: "alpha")
    #expect(first.status.code == 200)
    #expect(first.headers["RateLimit-Policy"] == #""runs";q=2;w=60"#)
    #expect(first.headers["RateLimit"]?.hasPrefix(#""runs";r=1;t="#) == true)
    #expect(run(router, token: "alpha").headers["RateLimit"]?.hasPrefix(#""runs";r=0;t="#) == true)
    let refused = run(router, token: "alpha")
    #expect(refused.status.code == 429)
    #expect(refused.error?.code == "rate_limited")
    let retryAfter = Int(refused.headers["Retry-After"] ?? "") ?? 0
    #expect((1...60).contains(retryAfter))
    #expect(refused.headers["RateLimit"] == #""runs";r=0;t=\#(retryAfter)"#)
    // Its own quota for beta; reads are never counted.
    let other = run(router, token: "beta")
    #expect(other.status.code == 200)
    #expect(other.headers["RateLimit-Policy"] == #""runs";q=5;w=60"#)
    let read = router.handle(request("GET", "/v1/runtimes", headers: [("Authorization", "Bearer alpha")]))
    #expect(read.status.code == 200)
    #expect(read.headers["RateLimit"] == nil)
    let metrics = router.handle(request("GET", "/metrics", headers: [("Authorization", "Bearer alpha")])).text
    #expect(metrics.contains(#"dsa_run_http_requests_total{route="/v1/execute",code="429"} 1"#))
    #expect(metrics.contains(#"dsa_run_runs_total{language="python",status="ok"} 3"#))
    // Two slots, nothing in line: a request now would not wait.
    #expect(metrics.contains("dsa_run_queue_estimated_wait_seconds 0\n"))
    #expect(metrics.contains("# TYPE dsa_run_queue_recent_run_seconds gauge\n"))
  }

  @Test func aWindowGivesTheQuotaBackWhenItEnds() {
    let limiter = RateLimiter(policy: RateLimiter.Policy(quota: 3, windowSeconds: 10))
    #expect(limiter.take(token: "t", cost: 2, now: 100).remaining == 1)
    // A batch that does not fit takes nothing.
    let tooMany = limiter.take(token: "t", cost: 2, now: 104)
    #expect(!tooMany.allowed && tooMany.remaining == 1 && tooMany.resetSeconds == 6)
    #expect(limiter.take(token: "t", cost: 1, now: 105).allowed)
    #expect(!limiter.take(token: "t", cost: 1, now: 109.5).allowed)
    let fresh = limiter.take(token: "t", cost: 3, now: 110)
    #expect(fresh.allowed && fresh.remaining == 0 && fresh.resetSeconds == 10)
  }

  /// Without configured tokens an Authorization field would be the caller's to vary: one quota.
  @Test func withoutTokensEveryCallerSharesOneQuota() {
    let router = makeFakeRouter { $0.rateLimit = RateLimiter.Policy(quota: 1, windowSeconds: 60) }
    #expect(run(router, token: "one").status.code == 200)
    #expect(run(router, token: "two").status.code == 429)
  }
}
