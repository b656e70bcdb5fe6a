// attack: flood stderr from Kotlin with an endless stack of exceptions printed
// limits: output_kb=64
// expect: status in [output_limit]; stderr_truncated == true; elapsed_s < 15
fun main() {
    while (true) {
        Exception("flood ".repeat(100)).printStackTrace()
    }
}
