/* bcryptprimitives.dll for Wine 8.0, which has none (Wine 9 ships one).
 * Go 1.24 and later need its ProcessPrng at start-up ("fatal error:
 * bcryptprimitives.dll not found"); on Windows 10 and 11 the system's own
 * DLL is there. This one takes the same random bytes from RtlGenRandom
 * (advapi32's SystemFunction036), which Wine 8.0 implements. Only the
 * Wine smoke test (.ci/wine-smoke.sh) builds and uses it. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG n = length > 0x40000000 ? 0x40000000 : (ULONG)length;
        if (!SystemFunction036(data, n))
            return FALSE;
        data += n;
        length -= n;
    }
    return TRUE;
}
