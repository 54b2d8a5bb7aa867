// UNREAL SHIM: syntax check only, NOT Unreal Engine and not a substitute for an engine build.
// Declares just what the SinewIK plugin uses (see tests/unreal-shim/README.md).
#pragma once

#include "CoreMinimal.h"

struct FPlatformProcess
{
	static void* GetDllHandle(const TCHAR* Filename);
	static void FreeDllHandle(void* DllHandle);
};
