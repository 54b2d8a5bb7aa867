// Uncooked-only module: the UAnimGraphNode_Sinew* classes that put the runtime nodes in the
// Animation Blueprint editor (titles, tooltips, menu category). Not part of cooked games.

using UnrealBuildTool;

public class SinewIKEditor : ModuleRules
{
	public SinewIKEditor(ReadOnlyTargetRules Target) : base(Target)
	{
		PCHUsage = PCHUsageMode.UseExplicitOrSharedPCHs;

		PublicDependencyModuleNames.AddRange(new string[]
		{
			"Core",
			"CoreUObject",
			"Engine",
			"AnimGraph",
			"AnimGraphRuntime",
			"BlueprintGraph",
			"SinewIK",
		});

		if (Target.bBuildEditor)
		{
			PrivateDependencyModuleNames.Add("UnrealEd");
		}
	}
}
