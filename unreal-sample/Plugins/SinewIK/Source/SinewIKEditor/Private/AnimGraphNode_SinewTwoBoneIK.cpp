#include "AnimGraphNode_SinewTwoBoneIK.h"

#include "SinewIKEditorText.h"

#define LOCTEXT_NAMESPACE "SinewIK"

FText UAnimGraphNode_SinewTwoBoneIK::GetControllerDescription() const
{
	return LOCTEXT("SinewTwoBoneIK_Description", "Sinew Two Bone IK");
}

FText UAnimGraphNode_SinewTwoBoneIK::GetTooltipText() const
{
	return LOCTEXT("SinewTwoBoneIK_Tooltip", "Two-bone IK solved by the Sinew runtime: a drop-in for Two Bone IK (same effector, joint target, stretch and end-rotation settings) with soften, pole weight and an optional joint target. Component space, centimetres.");
}

FText UAnimGraphNode_SinewTwoBoneIK::GetNodeTitle(ENodeTitleType::Type TitleType) const
{
	return SinewIKEditor::NodeTitle(GetControllerDescription(), Node.IKBone.BoneName, TitleType);
}

FString UAnimGraphNode_SinewTwoBoneIK::GetNodeCategory() const
{
	return SinewIKEditor::NodeCategory();
}

#undef LOCTEXT_NAMESPACE
