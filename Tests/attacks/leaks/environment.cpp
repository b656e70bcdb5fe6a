// attack: read the host's environment from C++: environ, getenv of well-known variables, /proc/self/environ and /proc/1/environ
// expect: status in [ok]; stdout contains "LANG="; stdout lacks "DSA_ATTACK_HOST_SECRET"; stdout lacks "DSA_RUN_DATA"; stdout lacks "HOME=/root"; stdout contains "done"
#include <bits/stdc++.h>
#include <unistd.h>

int main() {
  for (char **entry = environ; *entry; entry++) std::cout << *entry << '\n';
  for (const char *name : {"HOME", "USER", "SUDO_USER", "SSH_AUTH_SOCK", "DSA_RUN_DATA", "INVOCATION_ID"})
    if (const char *value = std::getenv(name)) std::cout << name << '=' << value << '\n';
  for (const char *path : {"/proc/self/environ", "/proc/1/environ"}) {
    std::ifstream file(path, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(file)), {});
    std::replace(text.begin(), text.end(), '\0', ' ');
    std::cout << path << ": " << (file ? text : "unreadable") << '\n';
  }
  std::cout << "done" << std::endl;
}
