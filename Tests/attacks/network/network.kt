// attack: from Kotlin: TCP to the host listener and the daemon, a URL read from the daemon, UDP, DNS, the host's Unix socket
// expect: status in [ok]; stdout lacks "CONNECTED"; stdout lacks "SENT"; stdout lacks "RESOLVED"; stdout contains "done"
import java.net.*
import java.nio.channels.SocketChannel

fun attempt(name: String, action: () -> String) {
    val result = try { action() } catch (error: Exception) { "refused: $error" }
    println("$name $result")
}

fun main() {
    attempt("tcp host listener") { Socket("127.0.0.1", @HOST_TCP_PORT@).use { "CONNECTED" } }
    attempt("url daemon") { "CONNECTED " + URL("http://127.0.0.1:@DAEMON_PORT@/v1/runtimes").readText().take(80) }
    attempt("udp") {
        DatagramSocket().send(DatagramPacket(byteArrayOf(1), 1, InetAddress.getByName("127.0.0.1"), @HOST_UDP_PORT@))
        "SENT"
    }
    attempt("dns") { "RESOLVED " + InetAddress.getAllByName("example.com").joinToString() }
    attempt("unix host socket") { SocketChannel.open(UnixDomainSocketAddress.of("@HOST_UNIX_SOCKET@")).use { "CONNECTED" } }
    println("done")
}
