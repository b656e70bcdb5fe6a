// attack: read the host's environment from Kotlin, and the JVM's view of the user and machine
// expect: status in [ok]; stdout contains "LANG"; stdout lacks "DSA_ATTACK_HOST_SECRET"; stdout lacks "DSA_RUN_DATA"; stdout lacks "user.home=/root"
fun main() {
    println(System.getenv())
    println("user.home=${System.getProperty("user.home")} user.name=${System.getProperty("user.name")}")
    println(java.net.InetAddress.getLocalHost())
}
