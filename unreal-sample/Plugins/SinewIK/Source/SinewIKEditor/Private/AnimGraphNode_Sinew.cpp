#include "AnimGraphNode_Sinew.h"

#define LOCTEXT_NAMESPACE "SinewIK"

FText UAnimGraphNode_SinewBase::GetNodeTitle(ENodeTitleType::Type TitleType) const
{
	const FText Description = GetControllerDescription();
	const FName Bone = GetTitleBone();
	const bool bShort = TitleType == ENodeTitleType::ListView || TitleType == ENodeTitleType::MenuTitle;
	if (bShort || Bone == NAME_None)
	{
		return Description;
	}
	return FText::Format(LOCTEXT("NodeTitleWithBone", "{0}\nBone: {1}"), Description, FText::FromName(Bone));
}

FString UAnimGraphNode_SinewBase::GetNodeCategory() const
{
	return TEXT("Sinew IK");
}

FText UAnimGraphNode_SinewTwoBoneIK::GetControllerDescription() const
{
	return LOCTEXT("SinewTwoBoneIK_Description", "Sinew Two Bone IK");
}

FText UAnimGraphNode_SinewTwoBoneIK::GetTooltipText() const
{
	return LOCTEXT("SinewTwoBoneIK_Tooltip", "Two-bone IK solved by the Sinew runtime: a drop-in for Two Bone IK (same effector, joint target, stretch and end-rotation settings) with soften, pole weight and an optional joint target. Component space, centimetres.");
}

FText UAnimGraphNode_SinewFabrik::GetControllerDescription() const
{
	return LOCTEXT("SinewFabrik_Description", "Sinew FABRIK");
}

FText UAnimGraphNode_SinewFabrik::GetTooltipText() const
{
	return LOCTEXT("SinewFabrik_Tooltip", "FABRIK chain IK solved by the Sinew runtime: a drop-in for FABRIK (root and tip bones, effector transform, Precision in centimetres, MaxIterations, effector rotation source) that keeps bone lengths and stops early when it stalls.");
}

FText UAnimGraphNode_SinewAim::GetControllerDescription() const
{
	return LOCTEXT("SinewAim_Description", "Sinew Aim");
}

FText UAnimGraphNode_SinewAim::GetTooltipText() const
{
	return LOCTEXT("SinewAim_Tooltip", "Aim / look-at solved by the Sinew runtime: turns the chain from RootBone to TipBone so the tip's AimAxis, from AimOffset (eyes, a muzzle), points at TargetLocation, shared by per-bone weights under per-bone and whole-chain angle limits; past the limits it holds, then eases back as the target goes exactly behind, never flipping sides. Optional up target for the roll. Component space, centimetres.");
}

FText UAnimGraphNode_SinewMultiFabrik::GetControllerDescription() const
{
	return LOCTEXT("SinewMultiFabrik_Description", "Sinew Multi-Effector FABRIK");
}

FText UAnimGraphNode_SinewMultiFabrik::GetTooltipText() const
{
	return LOCTEXT("SinewMultiFabrik_Tooltip", "Multi-effector FABRIK solved by the Sinew runtime: the bone tree from a root to several effector bones (both hands, five fingertips) reaching all their goals at once, each effector with its transform and space, weight and optional rotation; Precision in centimetres, MaxIterations and effector rotation source as FABRIK. The root bone stays in place.");
}

FText UAnimGraphNode_SinewCCDIK::GetControllerDescription() const
{
	return LOCTEXT("SinewCCDIK_Description", "Sinew CCDIK");
}

FText UAnimGraphNode_SinewCCDIK::GetTooltipText() const
{
	return LOCTEXT("SinewCCDIK_Tooltip", "CCD chain IK solved by the Sinew runtime: a drop-in for CCDIK (root and tip bones, effector location, Precision in centimetres, MaxIterations, start from tail, per-joint rotation limits in degrees).");
}

FText UAnimGraphNode_SinewHandIKRetargeting::GetControllerDescription() const
{
	return LOCTEXT("SinewHandIKRetargeting_Description", "Sinew Hand IK Retargeting");
}

FText UAnimGraphNode_SinewHandIKRetargeting::GetTooltipText() const
{
	return LOCTEXT("SinewHandIKRetargeting_Tooltip", "Moves IK bones by the offset between the IK and FK hands (HandFKWeight: 0 left, 1 right; per-axis alpha), computed by the Sinew runtime, so two-handed props follow characters of other proportions.");
}

#undef LOCTEXT_NAMESPACE
