#include "AnimGraphNode_SinewHandIKRetargeting.h"

#include "SinewIKEditorText.h"

#define LOCTEXT_NAMESPACE "SinewIK"

FText UAnimGraphNode_SinewHandIKRetargeting::GetControllerDescription() const
{
	return LOCTEXT("SinewHandIKRetargeting_Description", "Sinew Hand IK Retargeting");
}

FText UAnimGraphNode_SinewHandIKRetargeting::GetTooltipText() const
{
	return LOCTEXT("SinewHandIKRetargeting_Tooltip", "Moves IK bones by the offset between the IK and FK hands (HandFKWeight: 0 left, 1 right; per-axis alpha), computed by the Sinew runtime, so two-handed props follow characters of other proportions.");
}

FText UAnimGraphNode_SinewHandIKRetargeting::GetNodeTitle(ENodeTitleType::Type TitleType) const
{
	return SinewIKEditor::NodeTitle(GetControllerDescription(), NAME_None, TitleType);
}

FString UAnimGraphNode_SinewHandIKRetargeting::GetNodeCategory() const
{
	return SinewIKEditor::NodeCategory();
}

#undef LOCTEXT_NAMESPACE
