#pragma once

#include "CoreMinimal.h"
#include "Modules/ModuleManager.h"

/**
 * Loads the Sinew shared library from the plugin's ThirdParty folder at startup (desktop
 * platforms; iOS and Android link it statically), checks its ABI version against the header the
 * plugin was built with, and frees it at shutdown unless a node still holds a solver (then it
 * stays loaded until the process exits).
 */
class SINEWIK_API FSinewIKModule : public IModuleInterface
{
public:
	virtual void StartupModule() override;
	virtual void ShutdownModule() override;

	/** Path of the shared library for this platform, empty where it is linked statically. */
	static FString GetLibraryPath();

private:
	void* LibraryHandle = nullptr;
};
