// External module: the Sinew native library (a Rust cdylib/staticlib with a C ABI) and its
// headers, staged into this folder by scripts/stage_unreal.sh:
//
//   include/sinew.h, include/sinew.hpp, include/sinew_handle.hpp, include/sinew_unreal.hpp
//   lib/Win64/sinew.dll + sinew.lib (the release package's MSVC import library), sinew.dll.lib
//     (an MSVC build's) or libsinew.dll.a (MinGW's)
//   lib/Linux/x86_64-unknown-linux-gnu/libsinew.so
//   lib/LinuxArm64/aarch64-unknown-linux-gnu/libsinew.so
//   lib/Mac/libsinew.dylib
//   lib/IOS/libsinew.a, lib/Android/<abi>/libsinew.a (static)
//
// Desktop platforms load the shared library at module startup (FSinewIKModule) from the
// plugin's base directory; it is delay-loaded where the platform allows, and staged into
// packaged builds through RuntimeDependencies.

using System.IO;
using UnrealBuildTool;

public class SinewLibrary : ModuleRules
{
	public SinewLibrary(ReadOnlyTargetRules Target) : base(Target)
	{
		Type = ModuleType.External;

		string IncludeDir = Path.Combine(ModuleDirectory, "include");
		string LibDir = Path.Combine(ModuleDirectory, "lib");
		const string PluginLibDir = "$(PluginDir)/Source/ThirdParty/SinewLibrary/lib";

		if (!File.Exists(Path.Combine(IncludeDir, "sinew.h")))
		{
			throw new BuildException(
				"SinewLibrary: " + IncludeDir + " has no sinew.h. Build Sinew and run " +
				"scripts/stage_unreal.sh from the Sinew repository to stage the library and headers.");
		}
		PublicSystemIncludePaths.Add(IncludeDir);
		PublicDefinitions.Add("WITH_SINEW=1");

		if (Target.Platform == UnrealTargetPlatform.Win64)
		{
			string Dll = Path.Combine(LibDir, "Win64", "sinew.dll");
			RequireFile(Dll);
			string ImportLib = null;
			foreach (string Name in new string[] { "sinew.lib", "sinew.dll.lib", "libsinew.dll.a" })
			{
				string Candidate = Path.Combine(LibDir, "Win64", Name);
				if (ImportLib == null && File.Exists(Candidate))
				{
					ImportLib = Candidate;
				}
			}
			PublicAdditionalLibraries.Add(ImportLib ?? RequireFile(Path.Combine(LibDir, "Win64", "sinew.lib")));
			PublicDelayLoadDLLs.Add("sinew.dll");
			RuntimeDependencies.Add(PluginLibDir + "/Win64/sinew.dll");
		}
		else if (Target.Platform == UnrealTargetPlatform.Linux || Target.Platform == UnrealTargetPlatform.LinuxArm64)
		{
			string Sub = Target.Platform == UnrealTargetPlatform.Linux
				? "Linux/x86_64-unknown-linux-gnu" : "LinuxArm64/aarch64-unknown-linux-gnu";
			string So = RequireFile(Path.Combine(LibDir, Sub, "libsinew.so"));
			PublicAdditionalLibraries.Add(So);
			PublicDelayLoadDLLs.Add(So);
			RuntimeDependencies.Add(PluginLibDir + "/" + Sub + "/libsinew.so");
		}
		else if (Target.Platform == UnrealTargetPlatform.Mac)
		{
			string Dylib = RequireFile(Path.Combine(LibDir, "Mac", "libsinew.dylib"));
			PublicDelayLoadDLLs.Add(Dylib);
			RuntimeDependencies.Add(PluginLibDir + "/Mac/libsinew.dylib");
		}
		else if (Target.Platform == UnrealTargetPlatform.IOS)
		{
			PublicAdditionalLibraries.Add(RequireFile(Path.Combine(LibDir, "IOS", "libsinew.a")));
		}
		else if (Target.Platform == UnrealTargetPlatform.Android)
		{
			// One static library per ABI UE builds for; UBT picks the matching one per architecture.
			foreach (string Abi in new string[] { "arm64-v8a", "x86_64" })
			{
				string Lib = Path.Combine(LibDir, "Android", Abi, "libsinew.a");
				if (File.Exists(Lib))
				{
					PublicAdditionalLibraries.Add(Lib);
				}
			}
		}
	}

	private static string RequireFile(string FilePath)
	{
		if (!File.Exists(FilePath))
		{
			throw new BuildException("SinewLibrary: missing " + FilePath + " (run scripts/stage_unreal.sh)");
		}
		return FilePath;
	}
}
