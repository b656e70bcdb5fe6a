// libcrypto (Debian libssl-dev), used by SystemCore only: SHA-1 (the WebSocket handshake's
// Sec-WebSocket-Accept), SHA-256 (content addresses), HMAC-SHA256 and base64.
#include <openssl/sha.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
