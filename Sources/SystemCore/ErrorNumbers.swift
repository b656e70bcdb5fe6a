import Glibc

/// The symbolic name of an errno value, as operators search for it ("errno N" for the rest).
public func errorNumberName(_ value: Int32) -> String {
  switch value {
  case EPERM: return "EPERM"
  case ENOENT: return "ENOENT"
  case ESRCH: return "ESRCH"
  case E2BIG: return "E2BIG"
  case EBADF: return "EBADF"
  case EAGAIN: return "EAGAIN"
  case ENOMEM: return "ENOMEM"
  case EACCES: return "EACCES"
  case EBUSY: return "EBUSY"
  case EEXIST: return "EEXIST"
  case EXDEV: return "EXDEV"
  case ENOTDIR: return "ENOTDIR"
  case EISDIR: return "EISDIR"
  case EINVAL: return "EINVAL"
  case ENFILE: return "ENFILE"
  case EMFILE: return "EMFILE"
  case ENOSPC: return "ENOSPC"
  case EROFS: return "EROFS"
  case EPIPE: return "EPIPE"
  case ENAMETOOLONG: return "ENAMETOOLONG"
  case ENOSYS: return "ENOSYS"
  case ELOOP: return "ELOOP"
  case EOVERFLOW: return "EOVERFLOW"
  case ENOTSOCK: return "ENOTSOCK"
  case EADDRINUSE: return "EADDRINUSE"
  case EADDRNOTAVAIL: return "EADDRNOTAVAIL"
  case ECONNREFUSED: return "ECONNREFUSED"
  default: return "errno \(value)"
  }
}
