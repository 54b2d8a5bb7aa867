// UNREAL SHIM: syntax check only, NOT Unreal Engine and not a substitute for an engine build.
// Declares just what the SinewIK plugin uses (see tests/unreal-shim/README.md).
#pragma once

#include "CoreMinimal.h"

class IModuleInterface
{
public:
	virtual ~IModuleInterface() = default;
	virtual void StartupModule() {}
	virtual void ShutdownModule() {}
};

class FDefaultModuleImpl : public IModuleInterface {};

#define IMPLEMENT_MODULE(ModuleImplClass, ModuleName) \
	extern "C" IModuleInterface* InitializeModule_##ModuleName() { return new ModuleImplClass(); }
