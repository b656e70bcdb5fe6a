# attack: reach the host and the internet: TCP to a host listener, the daemon and 1.1.1.1; UDP; raw ICMP; DNS; netlink; Unix sockets at host paths (the daemon's own)
# expect: status in [ok]; stdout lacks "CONNECTED"; stdout lacks "SENT"; stdout lacks "RESOLVED"; stdout lacks "OPENED"; stdout contains "done"
import socket


def attempt(name, action):
    try:
        print(name, action())
    except OSError as error:
        print(name, "refused:", type(error).__name__, error.errno)


def tcp(host, port):
    connection = socket.create_connection((host, port), timeout=2)
    connection.sendall(b"GET /healthz HTTP/1.0\r\n\r\n")
    return "CONNECTED " + connection.recv(100).decode(errors="replace")


def udp(host, port):
    sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sender.sendto(b"box was here", (host, port))
    return "SENT"


def unix(path):
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    client.settimeout(2)
    client.connect(path)
    client.sendall(b"GET /healthz HTTP/1.0\r\n\r\n")
    return "CONNECTED " + client.recv(100).decode(errors="replace")


attempt("tcp host listener", lambda: tcp("127.0.0.1", @HOST_TCP_PORT@))
attempt("tcp daemon", lambda: tcp("127.0.0.1", @DAEMON_PORT@))
attempt("tcp internet", lambda: tcp("1.1.1.1", 443))
attempt("tcp6 loopback", lambda: tcp("::1", @DAEMON_PORT@))
attempt("udp host listener", lambda: udp("127.0.0.1", @HOST_UDP_PORT@))
attempt("udp dns", lambda: udp("8.8.8.8", 53))
attempt("raw icmp", lambda: "OPENED " + str(socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)))
attempt("ping socket", lambda: "OPENED " + str(socket.socket(socket.AF_INET, socket.SOCK_DGRAM, socket.IPPROTO_ICMP)))
attempt("netlink route", lambda: "OPENED " + str(socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0)))
attempt("packet", lambda: "OPENED " + str(socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)))
attempt("vsock", lambda: "OPENED " + str(socket.socket(40, socket.SOCK_STREAM, 0)))
attempt("dns", lambda: "RESOLVED " + str(socket.getaddrinfo("example.com", 80)))
attempt("unix host socket", lambda: unix("@HOST_UNIX_SOCKET@"))
attempt("unix daemon socket", lambda: unix("@DAEMON_SOCKET@"))
for path in ("/run/dsa-run/dsa-rund.sock", "/var/run/docker.sock", "/run/systemd/private", "/run/dbus/system_bus_socket"):
    attempt("unix " + path, lambda: unix(path))
# Abstract Unix sockets live in the network namespace, not the file system: a host one must be out of reach.
attempt("abstract unix host socket", lambda: unix("\0@HOST_ABSTRACT_SOCKET@"))
print("done")
