// attack: process bomb from Kotlin: shells that each start more shells, from several threads
// limits: cpu_ms=2000 wall_ms=4000
// expect: status in [ok, runtime_error, time_limit, memory_limit]; elapsed_s < 20
// survivors: atkbomb-kt
import kotlin.concurrent.thread

fun main() {
    repeat(6) {
        thread {
            while (true) {
                try {
                    ProcessBuilder("/bin/sh", "-c", "while :; do (sleep 30; : atkbomb-kt) & done").start()
                } catch (error: Throwable) {
                    Thread.onSpinWait()
                }
            }
        }
    }
}
