#include "SinewIKModule.h"

#include "HAL/PlatformProcess.h"
#include "Interfaces/IPluginManager.h"
#include "Misc/Paths.h"
#include "SinewIKLog.h"
#include "SinewNative.h"

#include <atomic>

DEFINE_LOG_CATEGORY(LogSinewIK);

namespace
{
	std::atomic<bool> GSinewLibraryReady{false};
}

bool SinewIK::IsLibraryReady()
{
	return GSinewLibraryReady.load(std::memory_order_acquire);
}

FString FSinewIKModule::GetLibraryPath()
{
	const TSharedPtr<IPlugin> Plugin = IPluginManager::Get().FindPlugin(TEXT("SinewIK"));
	if (!Plugin.IsValid())
	{
		return FString();
	}
	const FString LibDir = FPaths::Combine(Plugin->GetBaseDir(), TEXT("Source/ThirdParty/SinewLibrary/lib"));
#if PLATFORM_WINDOWS
	return FPaths::Combine(LibDir, TEXT("Win64/sinew.dll"));
#elif PLATFORM_MAC
	return FPaths::Combine(LibDir, TEXT("Mac/libsinew.dylib"));
#elif PLATFORM_LINUXARM64
	return FPaths::Combine(LibDir, TEXT("LinuxArm64/aarch64-unknown-linux-gnu/libsinew.so"));
#elif PLATFORM_LINUX
	return FPaths::Combine(LibDir, TEXT("Linux/x86_64-unknown-linux-gnu/libsinew.so"));
#else
	return FString(); // statically linked
#endif
}

void FSinewIKModule::StartupModule()
{
#if PLATFORM_WINDOWS || PLATFORM_MAC || PLATFORM_LINUX || PLATFORM_LINUXARM64
	const FString LibraryPath = GetLibraryPath();
	LibraryHandle = LibraryPath.IsEmpty() ? nullptr : FPlatformProcess::GetDllHandle(*LibraryPath);
	if (LibraryHandle == nullptr)
	{
		// Without the library no Sinew function may be called (on Windows the delay-loaded import
		// would fault): the nodes report themselves invalid and pass their input pose through.
		UE_LOG(LogSinewIK, Error, TEXT("Could not load the Sinew library from '%s'; Sinew nodes are disabled. "
			"Run scripts/stage_unreal.sh in the Sinew repository."), *LibraryPath);
		return;
	}
#endif

	if (!sinew::abi_compatible())
	{
		UE_LOG(LogSinewIK, Error, TEXT("The Sinew library has ABI version %u but the plugin was built against %u; "
			"Sinew nodes are disabled. Restage the library and its headers together."),
			sinew::abi_version(), static_cast<uint32>(SINEW_ABI_VERSION));
		return;
	}

	const sinew::Result<sinew::Version> Version = sinew::version();
	if (Version)
	{
		UE_LOG(LogSinewIK, Log, TEXT("Sinew %u.%u.%u loaded (ABI %u)"), Version.value().major, Version.value().minor,
			Version.value().patch, sinew::abi_version());
	}
	GSinewLibraryReady.store(true, std::memory_order_release);
}

void FSinewIKModule::ShutdownModule()
{
	// New solves stop here; nodes that still hold solvers destroy them later (when the engine
	// frees them), which calls into the library, so it is unloaded only when none is left.
	GSinewLibraryReady.store(false, std::memory_order_release);
	if (LibraryHandle == nullptr)
	{
		return;
	}
	const int64 Live = sinew_unreal::live_handle_count().load(std::memory_order_acquire);
	if (Live != 0)
	{
		UE_LOG(LogSinewIK, Log, TEXT("%lld Sinew solvers are still alive; the library stays loaded until the process exits."),
			static_cast<long long>(Live));
		return;
	}
	FPlatformProcess::FreeDllHandle(LibraryHandle);
	LibraryHandle = nullptr;
}

IMPLEMENT_MODULE(FSinewIKModule, SinewIK)
