#ifndef CSODIUM_SHIM_H
#define CSODIUM_SHIM_H

/*
 * Shim for libsodium (Debian's libsodium-dev): Argon2id password hashing for the
 * service's logins (crypto_pwhash_str, crypto_pwhash_str_verify) and its
 * constant-time comparison (sodium_memcmp). The sizes and limits are macros; the
 * library's own functions that return them (crypto_pwhash_strbytes(),
 * crypto_pwhash_opslimit_interactive(), ...) are what Swift calls.
 */
#include <sodium.h>

#endif /* CSODIUM_SHIM_H */
