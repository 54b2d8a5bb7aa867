#include "AnimNode_SinewTwoBoneIK.h"

#include "Animation/AnimInstanceProxy.h"

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

void FAnimNode_SinewTwoBoneIK::Initialize_AnyThread(const FAnimationInitializeContext& Context)
{
	FAnimNode_SinewIKBase::Initialize_AnyThread(Context);
	JointTarget.Initialize(Context.AnimInstanceProxy);
}

bool FAnimNode_SinewTwoBoneIK::IsValidToEvaluate(const USkeleton* Skeleton, const FBoneContainer& RequiredBones)
{
	return FAnimNode_SinewIKBase::IsValidToEvaluate(Skeleton, RequiredBones) && IKBone.IsValidToEvaluate(RequiredBones) &&
		(!bUseJointTarget || SinewIK::IsTargetValid(JointTarget, JointTargetLocationSpace, RequiredBones));
}

SinewIK::FTargetSpace FAnimNode_SinewTwoBoneIK::GetEffector() const
{
	return SinewIK::FTargetSpace{EffectorLocationSpace, FTransform(EffectorLocation)};
}

void FAnimNode_SinewTwoBoneIK::CacheChain(const FBoneContainer& RequiredBones, TArray<int32>& OutChain)
{
	IKBone.Initialize(RequiredBones);
	JointTarget.InitializeBoneReferences(RequiredBones);
	// The upper limb, the lower limb and the end bone (IKBone and its parent and grandparent).
	const FCompactPoseBoneIndex End = IKBone.GetCompactPoseIndex(RequiredBones);
	const FCompactPoseBoneIndex Lower = End != INDEX_NONE ? RequiredBones.GetParentBoneIndex(End) : End;
	const FCompactPoseBoneIndex Upper = Lower != INDEX_NONE ? RequiredBones.GetParentBoneIndex(Lower) : Lower;
	if (Upper != INDEX_NONE)
	{
		OutChain.Add(Upper.GetInt());
		OutChain.Add(Lower.GetInt());
		OutChain.Add(End.GetInt());
	}
}

FString FAnimNode_SinewTwoBoneIK::GetChainName() const
{
	return FString::Printf(TEXT("IKBone: %s"), *IKBone.BoneName.ToString());
}

SinewStatus FAnimNode_SinewTwoBoneIK::Solve(FComponentSpacePoseContext& Output, const FTransform& EffectorCS,
	SinewIK::FChainBuffers& Buffers, uint32 /*Count*/)
{
	const FTransform JointTargetCS = SinewIK::TargetTransformInComponentSpace(Output, JointTarget,
		SinewIK::FTargetSpace{JointTargetLocationSpace, FTransform(JointTargetLocation)});
	const sinew_unreal::DQuat EffectorRotation = SinewIK::ToSinew(EffectorCS.GetRotation());
	const sinew_unreal::DVec3 Pole = SinewIK::ToSinew(JointTargetCS.GetTranslation());

	// The engine blends the output by Alpha (LocalBlendCSBoneTransforms): solve at full weight.
	const SinewStatus Status =
		Native.prepare(sinew_unreal::two_bone_ik_settings(MakeParams(), sinew_unreal::AlphaMode::AppliedByEngine));
	if (Status != SINEW_STATUS_OK)
	{
		return Status;
	}
	return sinew_unreal::solve_two_bone_ik(Native.get(), Buffers.Chain.GetData(), SinewIK::ToSinew(EffectorCS.GetTranslation()),
		&EffectorRotation, bUseJointTarget ? &Pole : nullptr, Buffers.Chain.GetData(), &LastResult);
}
