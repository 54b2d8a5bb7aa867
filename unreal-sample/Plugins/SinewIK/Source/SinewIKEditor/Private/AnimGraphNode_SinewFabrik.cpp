#include "AnimGraphNode_SinewFabrik.h"

#include "SinewIKEditorText.h"

#define LOCTEXT_NAMESPACE "SinewIK"

FText UAnimGraphNode_SinewFabrik::GetControllerDescription() const
{
	return LOCTEXT("SinewFabrik_Description", "Sinew FABRIK");
}

FText UAnimGraphNode_SinewFabrik::GetTooltipText() const
{
	return LOCTEXT("SinewFabrik_Tooltip", "FABRIK chain IK solved by the Sinew runtime: a drop-in for FABRIK (root and tip bones, effector transform, Precision in centimetres, MaxIterations, effector rotation source) that keeps bone lengths and stops early when it stalls.");
}

FText UAnimGraphNode_SinewFabrik::GetNodeTitle(ENodeTitleType::Type TitleType) const
{
	return SinewIKEditor::NodeTitle(GetControllerDescription(), Node.TipBone.BoneName, TitleType);
}

FString UAnimGraphNode_SinewFabrik::GetNodeCategory() const
{
	return SinewIKEditor::NodeCategory();
}

#undef LOCTEXT_NAMESPACE
