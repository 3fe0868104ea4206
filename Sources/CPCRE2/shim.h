#ifndef CPCRE2_SHIM_H
#define CPCRE2_SHIM_H

/*
 * Shim for the PCRE2 8-bit library.
 *
 * A `.systemLibrary` target cannot pass cSettings, so the code unit width is
 * chosen here, before pcre2.h is included. With the width set to 8, pcre2.h
 * declares the `_8`-suffixed functions and types (pcre2_compile_8,
 * pcre2_code_8, ...); the unsuffixed public names are function-like macros
 * that Swift cannot see, so Swift code calls the `_8` names directly.
 *
 * Macros that Swift's importer cannot evaluate (casts such as
 * `(~(PCRE2_SIZE)0)`) are re-exported below as static inline functions.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <stddef.h>
#include <stdint.h>
#include <pcre2.h>

/// PCRE2_UNSET: the ovector value of an unset capture (SIZE_MAX).
/// Swift imports size_t as Int, so this reads as -1 there.
static inline size_t cpcre2_unset(void) { return PCRE2_UNSET; }

/// PCRE2_ZERO_TERMINATED: a pattern length meaning "NUL-terminated".
static inline size_t cpcre2_zero_terminated(void) { return PCRE2_ZERO_TERMINATED; }

/// 1 when this libpcre2-8 build supports JIT compilation on this machine.
static inline int cpcre2_jit_available(void) {
    uint32_t jit = 0;
    if (pcre2_config_8(PCRE2_CONFIG_JIT, &jit) < 0) return 0;
    return jit != 0;
}

#endif /* CPCRE2_SHIM_H */
