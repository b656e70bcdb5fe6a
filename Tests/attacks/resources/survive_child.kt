// attack: outlive the box from Kotlin: a setsid'd grandchild started through a shell, parent exits at once
// expect: status in [ok]; stdout contains "alive in box"
// survivors: atksv-kt
import java.io.File

fun main() {
    ProcessBuilder("/bin/sh", "-c", "setsid /bin/sh -c \"trap '' TERM HUP; sleep 60; : atksv-kt\" &").start().waitFor()
    Thread.sleep(300)
    File("/proc").listFiles()!!.filter { it.name.all(Char::isDigit) }.forEach {
        val command = runCatching { File(it, "cmdline").readText() }.getOrDefault("")
        if ("atksv-kt" in command) println("alive in box as pid ${it.name}")
    }
}
