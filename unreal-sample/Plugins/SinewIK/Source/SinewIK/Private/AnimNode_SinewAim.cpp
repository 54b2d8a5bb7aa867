#include "AnimNode_SinewAim.h"

sinew_unreal::AimNodeParams FAnimNode_SinewAim::MakeParams() const
{
	sinew_unreal::AimNodeParams Params;
	Params.aim_axis = SinewIK::ToSinew(AimAxis);
	Params.up_axis = SinewIK::ToSinew(UpAxis);
	Params.aim_offset = SinewIK::ToSinew(AimOffset);
	Params.up_is_position = bUpTargetIsPosition;
	Params.max_angle_degrees = MaxAngleDegrees;
	Params.tolerance = Tolerance;
	Params.max_iterations = MaxIterations;
	return Params;
}

bool FAnimNode_SinewAim::IsValidToEvaluate(const USkeleton* Skeleton, const FBoneContainer& RequiredBones)
{
	return FAnimNode_SinewIKBase::IsValidToEvaluate(Skeleton, RequiredBones) && TipBone.IsValidToEvaluate(RequiredBones) &&
		RootBone.IsValidToEvaluate(RequiredBones) && !AimAxis.IsNearlyZero();
}

SinewIK::FTargetSpace FAnimNode_SinewAim::GetEffector() const
{
	return SinewIK::FTargetSpace{TargetLocationSpace, FTransform(TargetLocation)};
}

void FAnimNode_SinewAim::CacheChain(const FBoneContainer& RequiredBones, TArray<int32>& OutChain)
{
	SinewIK::CacheBoneChain(RootBone, TipBone, RequiredBones, OutChain);
}

FString FAnimNode_SinewAim::GetChainName() const
{
	return SinewIK::BoneChainName(RootBone, TipBone);
}

SinewStatus FAnimNode_SinewAim::Solve(FComponentSpacePoseContext& /*Output*/, const FTransform& EffectorCS,
	SinewIK::FChainBuffers& Buffers, uint32 Count)
{
	const sinew_unreal::AimNodeParams Params = MakeParams();
	SinewStatus Status = Native.prepare(sinew_unreal::aim_settings(Params), Count);
	if (Status == SINEW_STATUS_OK)
	{
		Status = sinew_unreal::apply_aim_joints(Native.get(), Count, JointWeights.GetData(),
			static_cast<size_t>(JointWeights.Num()), JointMaxAngles.GetData(), static_cast<size_t>(JointMaxAngles.Num()));
	}
	if (Status != SINEW_STATUS_OK)
	{
		return Status;
	}
	const sinew_unreal::DVec3 Up = SinewIK::ToSinew(UpTarget);
	return sinew_unreal::solve_aim(Native.get(), Buffers.Chain.GetData(), Count,
		SinewIK::ToSinew(EffectorCS.GetTranslation()), bUseUpTarget ? &Up : nullptr, bUpTargetIsPosition,
		Buffers.Scratch.GetData(), Buffers.Chain.GetData(), &LastResult);
}
