import Foundation
import Glibc

// --watch: run (or grade) again each time a source file (or the --stdin file) is saved. Polling the
// files' identity every 200 ms is enough for a person saving in an editor, works on every file
// system, and sees editors that save by writing a new file and renaming it over the old one.

/// What identifies a saved version of a file: inode, size and modification time; nil while missing.
struct FileVersion: Equatable {
  var inode: UInt
  var size: Int
  var seconds: Int
  var nanoseconds: Int

  init?(path: String) {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    inode = UInt(info.st_ino)
    size = Int(info.st_size)
    seconds = info.st_mtim.tv_sec
    nanoseconds = info.st_mtim.tv_nsec
  }
}

let watchPollMicroseconds: UInt32 = 200_000

func watchAndRepeat(_ options: RunOptions) -> Never {
  let paths = options.files + (options.stdinPath.map { [$0] } ?? [])
  func versions() -> [FileVersion?] { paths.map(FileVersion.init(path:)) }
  let names = paths.joined(separator: ", ")
  var seen = versions()
  while true {
    let code = runOnce(options)
    if wasInterrupted { finish(code) }
    ProgramOutput.writeOwnLine("exit \(code); watching \(names) for changes (Ctrl-C to stop)")
    while true {
      usleep(watchPollMicroseconds)
      let now = versions()
      // A file missing for a moment is an editor's save in progress: wait until it is back.
      if now != seen && !now.contains(nil) {
        // Let a save that writes in several steps finish.
        usleep(watchPollMicroseconds / 2)
        seen = versions()
        break
      }
    }
    FileHandle.standardError.write(Data("dsa-run: \(names) changed; running again\n".utf8))
  }
}
