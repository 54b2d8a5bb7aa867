// Runtime module: the FAnimNode_Sinew* anim nodes and the module that loads the Sinew library.

using UnrealBuildTool;

public class SinewIK : ModuleRules
{
	public SinewIK(ReadOnlyTargetRules Target) : base(Target)
	{
		PCHUsage = PCHUsageMode.UseExplicitOrSharedPCHs;

		PublicDependencyModuleNames.AddRange(new string[]
		{
			"Core",
			"CoreUObject",
			"Engine",
			"AnimGraphRuntime",
			"SinewLibrary",
		});

		PrivateDependencyModuleNames.AddRange(new string[]
		{
			"Projects", // IPluginManager, to find the library next to the plugin
		});
	}
}
