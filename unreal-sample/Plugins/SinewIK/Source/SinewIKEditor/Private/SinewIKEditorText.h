// Shared titles and category of the Sinew anim graph nodes.

#pragma once

#include "CoreMinimal.h"
#include "EdGraph/EdGraphNode.h"

namespace SinewIKEditor
{
	/** Menu category of every Sinew node in the Animation Blueprint editor. */
	FString NodeCategory();

	/**
	 * "<Description>" in menus and lists (or when no bone is set), else
	 * "<Description>\nBone: <Bone>" on the graph, like Unreal's skeletal control nodes.
	 */
	FText NodeTitle(const FText& Description, FName Bone, ENodeTitleType::Type TitleType);
}
