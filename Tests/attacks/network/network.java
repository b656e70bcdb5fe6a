// attack: from the JVM: Socket to the host listener and the daemon, an HTTP request to the daemon, UDP, DNS, a Unix channel to the daemon's socket
// expect: status in [ok]; stdout lacks "CONNECTED"; stdout lacks "SENT"; stdout lacks "RESOLVED"; stdout contains "done"
import java.net.*;
import java.nio.channels.SocketChannel;

public class Network {
  interface Attempt {
    String run() throws Exception;
  }

  static void attempt(String name, Attempt attempt) {
    try {
      System.out.println(name + " " + attempt.run());
    } catch (Exception error) {
      System.out.println(name + " refused: " + error);
    }
  }

  public static void main(String[] args) {
    attempt("tcp host listener", () -> {
      new Socket().connect(new InetSocketAddress("127.0.0.1", @HOST_TCP_PORT@), 2000);
      return "CONNECTED";
    });
    attempt("http daemon", () -> "CONNECTED " + ((HttpURLConnection) new URL("http://127.0.0.1:@DAEMON_PORT@/healthz").openConnection()).getResponseCode());
    attempt("udp", () -> {
      new DatagramSocket().send(new DatagramPacket(new byte[] {1}, 1, InetAddress.getByName("127.0.0.1"), @HOST_UDP_PORT@));
      return "SENT";
    });
    attempt("dns", () -> "RESOLVED " + InetAddress.getByName("example.com"));
    attempt("icmp reachable", () -> InetAddress.getByName("1.1.1.1").isReachable(1000) ? "CONNECTED" : "unreachable");
    attempt("unix daemon socket", () -> {
      SocketChannel.open(UnixDomainSocketAddress.of("@DAEMON_SOCKET@"));
      return "CONNECTED";
    });
    System.out.println("done");
  }
}
