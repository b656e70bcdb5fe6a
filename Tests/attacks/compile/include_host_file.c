// attack: #include host files a compiler outside the box would find (/etc/hostname, /root/.bashrc, the daemon's config)
// expect: status in [compile_error]; output contains "/etc/hostname: No such file or directory"
#include "/etc/hostname"
#include "/root/.bashrc"
#include "/etc/dsa-run/dsa-rund.json"

int main(void) { return 0; }
