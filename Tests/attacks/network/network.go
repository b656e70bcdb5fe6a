// attack: from Go: net.Dial TCP and UDP to the host and the internet, an HTTP GET of the daemon, the pure-Go DNS resolver, the daemon's Unix socket
// expect: status in [ok]; stdout lacks "CONNECTED"; stdout lacks "SENT"; stdout lacks "RESOLVED"; stdout contains "done"
package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"
)

func main() {
	for _, target := range [][2]string{
		{"tcp", "127.0.0.1:@HOST_TCP_PORT@"}, {"tcp", "127.0.0.1:@DAEMON_PORT@"}, {"tcp", "1.1.1.1:443"},
		{"tcp6", "[::1]:@DAEMON_PORT@"}, {"unix", "@DAEMON_SOCKET@"}, {"unix", "@HOST_UNIX_SOCKET@"},
		{"ip4:icmp", "1.1.1.1"},
	} {
		connection, err := net.DialTimeout(target[0], target[1], 2*time.Second)
		if err == nil {
			fmt.Println(target, "CONNECTED")
			connection.Close()
		} else {
			fmt.Println(target, "refused:", err)
		}
	}
	if connection, err := net.Dial("udp", "127.0.0.1:@HOST_UDP_PORT@"); err == nil {
		if _, err := connection.Write([]byte("box was here")); err == nil {
			fmt.Println("udp SENT")
		}
	} else {
		fmt.Println("udp refused:", err)
	}
	client := http.Client{Timeout: 2 * time.Second}
	if response, err := client.Get("http://127.0.0.1:@DAEMON_PORT@/healthz"); err == nil {
		fmt.Println("http daemon CONNECTED", response.Status)
	} else {
		fmt.Println("http daemon refused:", err)
	}
	resolver := net.Resolver{PreferGo: true}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if addresses, err := resolver.LookupHost(ctx, "example.com"); err == nil {
		fmt.Println("dns RESOLVED", addresses)
	} else {
		fmt.Println("dns refused:", err)
	}
	fmt.Println("done")
}
