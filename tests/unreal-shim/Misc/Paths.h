// UNREAL SHIM: syntax check only, NOT Unreal Engine and not a substitute for an engine build.
// Declares just what the SinewIK plugin uses (see tests/unreal-shim/README.md).
#pragma once

#include "CoreMinimal.h"

class FPaths
{
public:
	template <typename... PathTypes>
	static FString Combine(PathTypes&&... InPaths)
	{
		FString Out;
		((Out += FString(InPaths)), ...);
		return Out;
	}
};
