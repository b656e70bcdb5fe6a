import Foundation
import Testing

@testable import HTTP

@Suite struct ResponseTests {
  private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

  @Test func serializesStatusHeadersLengthAndBody() {
    let response = HTTPResponse(
      status: .ok, headers: ["Content-Type": "application/json", "X-Request-Id": "7"], body: Data("{}".utf8))
    #expect(
      text(response.serialized(closeConnection: false))
        == "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Request-Id: 7\r\nContent-Length: 2\r\n\r\n{}")
  }

  @Test func saysCloseWhenTheServerCloses() {
    let response = HTTPResponse(status: .serviceUnavailable, headers: ["Retry-After": "1"])
    #expect(
      text(response.serialized(closeConnection: true))
        == "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
  }

  @Test func tellsAnHTTP10ClientTheConnectionStaysOpen() {
    let response = HTTPResponse(status: .noContent)
    #expect(
      text(response.head(closeConnection: false, requestVersion: .http10))
        == "HTTP/1.1 204 No Content\r\nConnection: keep-alive\r\n\r\n")
  }

  @Test(arguments: [100, 204, 304])
  func statusesWithoutBodyHaveNoLength(code: Int) {
    let response = HTTPResponse(status: HTTPStatus(code: code), body: Data("ignored".utf8))
    let serialized = text(response.serialized(closeConnection: false))
    #expect(!serialized.contains("Content-Length"))
    #expect(serialized.hasSuffix("\r\n\r\n"))
  }

  @Test func framingFieldsAreTheSerializers() {
    let response = HTTPResponse(
      status: .ok,
      headers: ["content-length": "99", "Transfer-Encoding": "chunked", "Connection": "keep-alive", "X": "y"],
      body: Data("abc".utf8))
    #expect(
      text(response.serialized(closeConnection: true))
        == "HTTP/1.1 200 OK\r\nX: y\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc")
  }

  @Test func valuesCannotInjectFieldsOrResponses() {
    let response = HTTPResponse(
      status: .ok, headers: ["X-Echo": "a\r\nSet-Cookie: x=1\r\n\r\nHTTP/1.1 200 OK", "Bad Name": "v", "": "v"])
    let head = text(response.head(closeConnection: false))
    #expect(head == "HTTP/1.1 200 OK\r\nX-Echo: a  Set-Cookie: x=1    HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
  }

  @Test func reasonPhrases() {
    #expect(HTTPStatus.contentTooLarge.description == "413 Content Too Large")
    #expect(HTTPStatus.uriTooLong.description == "414 URI Too Long")
    #expect(HTTPStatus.requestHeaderFieldsTooLarge.description == "431 Request Header Fields Too Large")
    #expect(HTTPStatus(code: 599).description == "599")
    #expect(
      text(HTTPResponse(status: HTTPStatus(code: 599)).head(closeConnection: false)).hasPrefix("HTTP/1.1 599 \r\n"))
  }

  @Test func continueHead() {
    #expect(text(HTTPResponse.continueHead) == "HTTP/1.1 100 Continue\r\n\r\n")
  }

  @Test func errorResponseCarriesStatusAndMessage() {
    var parser = HTTPRequestParser()
    guard let error = parser.feed(bytes("GET / HTTP/2.0\r\n\r\n")).errors.first else {
      Issue.record("HTTP/2.0 was accepted")
      return
    }
    let serialized = text(HTTPResponse.error(error).serialized(closeConnection: true))
    #expect(serialized.hasPrefix("HTTP/1.1 505 HTTP Version Not Supported\r\n"))
    #expect(serialized.contains("Connection: close\r\n"))
    #expect(serialized.hasSuffix("\r\n\r\n" + error.message + "\n"))
  }
}
