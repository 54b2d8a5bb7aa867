#include "AnimNode_SinewTwoBoneIK.h"

#include "Animation/AnimInstanceProxy.h"
#include "SinewIKLog.h"

static_assert(BCS_WorldSpace == 0 && BCS_ComponentSpace == 1 && BCS_ParentBoneSpace == 2 && BCS_BoneSpace == 3,
	"sinew_unreal::BoneControlSpace mirrors EBoneControlSpace");

sinew_unreal::TwoBoneIkNodeParams FAnimNode_SinewTwoBoneIK::MakeParams() const
{
	sinew_unreal::TwoBoneIkNodeParams Params;
	Params.alpha = Alpha;
	Params.allow_stretching = bAllowStretching;
	Params.start_stretch_ratio = StartStretchRatio;
	Params.max_stretch_scale = MaxStretchScale;
	Params.take_rotation_from_effector_space = bTakeRotationFromEffectorSpace;
	Params.maintain_effector_rel_rot = bMaintainEffectorRelRot;
	Params.allow_twist = bAllowTwist;
	Params.effector_location_space = static_cast<sinew_unreal::BoneControlSpace>(EffectorLocationSpace.GetValue());
	Params.soften = Soften;
	Params.pole_weight = PoleWeight;
	return Params;
}

void FAnimNode_SinewTwoBoneIK::GatherDebugData(FNodeDebugData& DebugData)
{
	FString DebugLine = DebugData.GetNodeName(this);
	DebugLine += TEXT("(");
	AddDebugNodeData(DebugLine);
	DebugLine += FString::Printf(TEXT(" IKBone: %s, Sinew %s, error %.3f cm, reached %u)"), *IKBone.BoneName.ToString(),
		ANSI_TO_TCHAR(sinew_unreal::status_name(LastStatus)), LastResult.error, LastResult.reached);
	DebugData.AddDebugItem(DebugLine);
	ComponentPose.GatherDebugData(DebugData);
}

void FAnimNode_SinewTwoBoneIK::Initialize_AnyThread(const FAnimationInitializeContext& Context)
{
	FAnimNode_SkeletalControlBase::Initialize_AnyThread(Context);
	EffectorTarget.Initialize(Context.AnimInstanceProxy);
	JointTarget.Initialize(Context.AnimInstanceProxy);
}

void FAnimNode_SinewTwoBoneIK::EvaluateSkeletalControl_AnyThread(FComponentSpacePoseContext& Output,
	TArray<FBoneTransform>& OutBoneTransforms)
{
	check(OutBoneTransforms.Num() == 0);

	const FBoneContainer& BoneContainer = Output.Pose.GetPose().GetBoneContainer();
	const FCompactPoseBoneIndex EndIndex = IKBone.GetCompactPoseIndex(BoneContainer);
	const FCompactPoseBoneIndex Bones[3] = {CachedUpperLimbIndex, CachedLowerLimbIndex, EndIndex};

	// Component space, doubles; converted to floats relative to the upper limb inside the solve.
	sinew_unreal::DTransform Chain[3];
	for (int32 I = 0; I < 3; ++I)
	{
		Chain[I] = SinewIK::ToSinew(Output.Pose.GetComponentSpaceTransform(Bones[I]));
	}

	const FTransform& ComponentTransform = Output.AnimInstanceProxy->GetComponentTransform();
	const FTransform EffectorCS = SinewIK::TargetTransformInComponentSpace(ComponentTransform, Output.Pose,
		EffectorTarget, EffectorLocationSpace, FTransform(EffectorLocation));
	const FTransform JointTargetCS = SinewIK::TargetTransformInComponentSpace(ComponentTransform, Output.Pose,
		JointTarget, JointTargetLocationSpace, FTransform(JointTargetLocation));
	const sinew_unreal::DVec3 Effector = SinewIK::ToSinew(EffectorCS.GetTranslation());
	const sinew_unreal::DQuat EffectorRotation = SinewIK::ToSinew(EffectorCS.GetRotation());
	const sinew_unreal::DVec3 Pole = SinewIK::ToSinew(JointTargetCS.GetTranslation());

	// The engine blends the output by Alpha (LocalBlendCSBoneTransforms): solve at full weight.
	SinewStatus Status = Native.prepare(sinew_unreal::two_bone_ik_settings(MakeParams(), sinew_unreal::AlphaMode::AppliedByEngine));
	sinew_unreal::DTransform Solved[3];
	if (Status == SINEW_STATUS_OK)
	{
		Status = sinew_unreal::solve_two_bone_ik(Native.get(), Chain, Effector, &EffectorRotation,
			bUseJointTarget ? &Pole : nullptr, Solved, &LastResult);
	}
	SinewIK::ReportStatus(TEXT("Sinew Two Bone IK"), Status, LastStatus);
	if (Status != SINEW_STATUS_OK)
	{
		return;
	}

	const int32 Indices[3] = {Bones[0].GetInt(), Bones[1].GetInt(), Bones[2].GetInt()};
	SinewIK::AppendSortedBoneTransforms(Indices, Solved, 3, OutBoneTransforms);
}

bool FAnimNode_SinewTwoBoneIK::IsValidToEvaluate(const USkeleton* Skeleton, const FBoneContainer& RequiredBones)
{
	if (!SinewIK::IsLibraryReady() || !IKBone.IsValidToEvaluate(RequiredBones))
	{
		return false;
	}
	if (CachedUpperLimbIndex == INDEX_NONE || CachedLowerLimbIndex == INDEX_NONE)
	{
		return false;
	}
	if (EffectorLocationSpace == BCS_ParentBoneSpace || EffectorLocationSpace == BCS_BoneSpace)
	{
		if (!EffectorTarget.IsValidToEvaluate(RequiredBones))
		{
			return false;
		}
	}
	if (bUseJointTarget && (JointTargetLocationSpace == BCS_ParentBoneSpace || JointTargetLocationSpace == BCS_BoneSpace))
	{
		if (!JointTarget.IsValidToEvaluate(RequiredBones))
		{
			return false;
		}
	}
	return true;
}

void FAnimNode_SinewTwoBoneIK::InitializeBoneReferences(const FBoneContainer& RequiredBones)
{
	IKBone.Initialize(RequiredBones);
	EffectorTarget.InitializeBoneReferences(RequiredBones);
	JointTarget.InitializeBoneReferences(RequiredBones);

	CachedLowerLimbIndex = FCompactPoseBoneIndex(INDEX_NONE);
	CachedUpperLimbIndex = FCompactPoseBoneIndex(INDEX_NONE);
	const FCompactPoseBoneIndex EndIndex = IKBone.GetCompactPoseIndex(RequiredBones);
	if (EndIndex != INDEX_NONE)
	{
		CachedLowerLimbIndex = RequiredBones.GetParentBoneIndex(EndIndex);
		if (CachedLowerLimbIndex != INDEX_NONE)
		{
			CachedUpperLimbIndex = RequiredBones.GetParentBoneIndex(CachedLowerLimbIndex);
		}
	}
}
