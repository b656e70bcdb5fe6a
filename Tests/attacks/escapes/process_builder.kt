// attack: use ProcessBuilder from Kotlin to run setuid tools, read /etc/shadow, enter /proc/1/root and reach the host TCP listener
// expect: status in [ok]; stdout contains "uid=1000"; stdout lacks "uid=0("; stdout lacks "SUCCEEDED"; stdout contains "done"
import java.util.concurrent.TimeUnit

fun run(vararg argv: String): Pair<Int, String> {
    val process = ProcessBuilder(*argv).redirectErrorStream(true).start()
    val output = process.inputStream.readBytes().decodeToString().trim().take(120)
    process.waitFor(4, TimeUnit.SECONDS)
    return process.exitValue() to output
}

fun attempt(name: String, vararg argv: String) {
    try {
        val (code, output) = run(*argv)
        println("$name: ${if (code == 0) "SUCCEEDED" else "refused"} $code $output")
    } catch (error: Exception) {
        println("$name: refused ${error.message}")
    }
}

fun main() {
    println(run("/usr/bin/id").second)
    attempt("read shadow", "/bin/cat", "/etc/shadow")
    attempt("proc root shadow", "/bin/cat", "/proc/1/root/etc/shadow")
    attempt("passwd", "/usr/bin/passwd", "-S", "root")
    attempt("bash tcp", "/bin/bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/@HOST_TCP_PORT@")
    attempt("unshare", "/usr/bin/unshare", "-U", "/usr/bin/id")
    println("done")
}
