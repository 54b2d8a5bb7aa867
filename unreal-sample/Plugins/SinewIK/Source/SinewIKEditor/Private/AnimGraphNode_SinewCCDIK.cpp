#include "AnimGraphNode_SinewCCDIK.h"

#include "SinewIKEditorText.h"

#define LOCTEXT_NAMESPACE "SinewIK"

FText UAnimGraphNode_SinewCCDIK::GetControllerDescription() const
{
	return LOCTEXT("SinewCCDIK_Description", "Sinew CCDIK");
}

FText UAnimGraphNode_SinewCCDIK::GetTooltipText() const
{
	return LOCTEXT("SinewCCDIK_Tooltip", "CCD chain IK solved by the Sinew runtime: a drop-in for CCDIK (root and tip bones, effector location, Precision in centimetres, MaxIterations, start from tail, per-joint rotation limits in degrees).");
}

FText UAnimGraphNode_SinewCCDIK::GetNodeTitle(ENodeTitleType::Type TitleType) const
{
	return SinewIKEditor::NodeTitle(GetControllerDescription(), Node.TipBone.BoneName, TitleType);
}

FString UAnimGraphNode_SinewCCDIK::GetNodeCategory() const
{
	return SinewIKEditor::NodeCategory();
}

#undef LOCTEXT_NAMESPACE
