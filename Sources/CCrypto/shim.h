// libcrypto (Debian libssl-dev): SHA-1 and base64 for the WebSocket handshake's Sec-WebSocket-Accept.
#include <openssl/sha.h>
#include <openssl/evp.h>
