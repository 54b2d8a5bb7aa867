/*
 * Test-only stand-in for Windows' bcryptprimitives.dll, for Wine releases older than 9.0
 * (Debian 12 ships Wine 8.0), which lack it. Rust's standard library imports ProcessPrng from
 * it on Windows 10 and later, so sinew.dll does not load under such a Wine without this file.
 * scripts/cross_test.sh builds it and puts it beside the test programs only: it never ships,
 * and real Windows uses its own.
 */
#include <windows.h>

/* advapi32's RtlGenRandom (exported as SystemFunction036), present in every Wine. */
BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

/* Fills `data` with `len` random bytes; always succeeds, as ProcessPrng is documented to. */
BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
    while (len > 0) {
        ULONG chunk = len > 0x10000000u ? 0x10000000u : (ULONG)len;
        if (!SystemFunction036(data, chunk)) {
            return FALSE;
        }
        data += chunk;
        len -= chunk;
    }
    return TRUE;
}
