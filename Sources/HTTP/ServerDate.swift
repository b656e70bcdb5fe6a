import Glibc

/// The `Date` field value (RFC 9110 §5.6.7 IMF-fixdate), e.g. "Sun, 06 Nov 1994 08:49:37 GMT".
///
/// Built from gmtime_r with fixed English names: DateFormatter would follow the process locale
/// and is costly to create per response.
enum HTTPDate {
  private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
  private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

  /// The value for `secondsSince1970` (UTC).
  static func string(secondsSince1970: Int) -> String {
    var seconds = time_t(secondsSince1970)
    var parts = tm()
    gmtime_r(&seconds, &parts)
    func twoDigits(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let year = String(parts.tm_year + 1900)
    return "\(weekdays[Int(parts.tm_wday)]), \(twoDigits(parts.tm_mday)) \(months[Int(parts.tm_mon)]) "
      + "\(String(repeating: "0", count: max(0, 4 - year.count)) + year) "
      + "\(twoDigits(parts.tm_hour)):\(twoDigits(parts.tm_min)):\(twoDigits(parts.tm_sec)) GMT"
  }

  /// The value for the current second.
  static func now() -> String { string(secondsSince1970: Int(time(nil))) }
}
