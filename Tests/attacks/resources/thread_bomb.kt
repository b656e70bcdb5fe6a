// attack: thread bomb in Kotlin: platform threads that each allocate and sleep, until the JVM cannot make more
// limits: cpu_ms=2000 wall_ms=5000
// expect: status in [ok, runtime_error, memory_limit, time_limit]; elapsed_s < 20
import kotlin.concurrent.thread

fun main() {
    var started = 0
    try {
        while (started < 10000) {
            thread(isDaemon = true) {
                val hold = ByteArray(64 * 1024)
                Thread.sleep(60_000 + hold.size.toLong())
            }
            started++
        }
    } catch (error: Throwable) {
        println("stopped: $error")
    }
    println("threads $started")
}
