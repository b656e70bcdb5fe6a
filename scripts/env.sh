# Sourced by the other scripts: puts the Swift toolchain on PATH.
if ! command -v swift >/dev/null 2>&1; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi
