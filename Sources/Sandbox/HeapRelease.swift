internal import CSandbox

/// Gives the heap's free pages back to the kernel (malloc_trim). After a load that parsed much and
/// kept little (the challenge catalogue's test files), the heap's high-water mark otherwise stays
/// resident for the process's life.
public func releaseFreeHeapMemory() { _ = dsa_release_free_heap() }
