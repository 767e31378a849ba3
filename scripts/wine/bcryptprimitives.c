/* Test-only stand-in for bcryptprimitives.dll under Wine 8, whose builtin
 * has no ProcessPrng: Go >= 1.24 programs import it for the runtime's seed
 * and crypto/rand and cannot start without it. It fills the buffer from
 * RtlGenRandom (advapi32!SystemFunction036). Never shipped. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buf, ULONG len);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
	while (len > 0) {
		ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
		if (!SystemFunction036(data, n))
			return FALSE;
		data += n;
		len -= n;
	}
	return TRUE;
}
