// UNREAL SHIM: syntax check only, NOT Unreal Engine and not a substitute for an engine build.
// Declares just what the SinewIK plugin uses (see tests/unreal-shim/README.md).
#pragma once

#include "CoreMinimal.h"

class IPlugin
{
public:
	virtual ~IPlugin() = default;
	virtual FString GetBaseDir() const = 0;
};

class IPluginManager
{
public:
	virtual ~IPluginManager() = default;
	static IPluginManager& Get();
	virtual TSharedPtr<IPlugin> FindPlugin(const TCHAR* Name) = 0;
};
