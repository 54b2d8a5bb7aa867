#include "AnimNode_SinewHandIKRetargeting.h"

sinew_unreal::HandIkNodeParams FAnimNode_SinewHandIKRetargeting::MakeParams() const
{
	sinew_unreal::HandIkNodeParams Params;
	Params.hand_fk_weight = HandFKWeight;
	Params.per_axis_alpha = SinewIK::ToSinew(PerAxisAlpha);
	return Params;
}

FString FAnimNode_SinewHandIKRetargeting::GetDebugDetails() const
{
	FString Details = FString::Printf(TEXT("HandFKWeight: %f, offset (%.2f, %.2f, %.2f) cm, bones"), HandFKWeight,
		LastOffset.x, LastOffset.y, LastOffset.z);
	for (const FBoneReference& Bone : IKBonesToMove)
	{
		Details += FString::Printf(TEXT(" %s"), *Bone.BoneName.ToString());
	}
	return Details;
}

void FAnimNode_SinewHandIKRetargeting::EvaluateSkeletalControl_AnyThread(FComponentSpacePoseContext& Output,
	TArray<FBoneTransform>& OutBoneTransforms)
{
	check(OutBoneTransforms.Num() == 0);

	const sinew_unreal::HandIkNodeParams Params = MakeParams();
	if (!sinew_unreal::hand_ik_has_effect(Params))
	{
		return; // as Unreal: nothing to move
	}
	const FBoneContainer& BoneContainer = Output.Pose.GetPose().GetBoneContainer();

	// Dense, duplicate-free list of the bones involved: the four hands, then the bones to move.
	TArray<int32, TInlineAllocator<16>> Dense;
	Dense.SetNumUninitialized(4 + IKBonesToMove.Num());
	sinew_unreal::DenseBoneSet Set(Dense.GetData(), static_cast<uint32>(Dense.Num()));
	SinewHandJoints Hands;
	Hands.right_fk = static_cast<uint32>(Set.add(RightHandFK.GetCompactPoseIndex(BoneContainer).GetInt()));
	Hands.left_fk = static_cast<uint32>(Set.add(LeftHandFK.GetCompactPoseIndex(BoneContainer).GetInt()));
	Hands.right_ik = static_cast<uint32>(Set.add(RightHandIK.GetCompactPoseIndex(BoneContainer).GetInt()));
	Hands.left_ik = static_cast<uint32>(Set.add(LeftHandIK.GetCompactPoseIndex(BoneContainer).GetInt()));

	TArray<uint32, TInlineAllocator<16>> Moved;
	for (const FBoneReference& Bone : IKBonesToMove)
	{
		if (Bone.IsValidToEvaluate(BoneContainer))
		{
			Moved.AddUnique(static_cast<uint32>(Set.add(Bone.GetCompactPoseIndex(BoneContainer).GetInt())));
		}
	}
	if (Moved.Num() == 0)
	{
		return;
	}

	const uint32 Count = Set.size();
	TArray<sinew_unreal::DTransform, TInlineAllocator<16>> Model;
	TArray<SinewTransform, TInlineAllocator<16>> Scratch;
	Model.SetNum(static_cast<int32>(Count));
	Scratch.SetNumUninitialized(static_cast<int32>(Count));
	for (uint32 I = 0; I < Count; ++I)
	{
		Model[I] = SinewIK::ToSinew(Output.Pose.GetComponentSpaceTransform(FCompactPoseBoneIndex(Set.bones()[I])));
	}

	SinewStatus Status = Native.prepare(sinew_unreal::hand_ik_settings(Params));
	if (Status == SINEW_STATUS_OK)
	{
		Status = sinew_unreal::apply_hand_ik_retargeting(Native.get(), Model.GetData(), Count, Hands, Moved.GetData(),
			static_cast<uint32>(Moved.Num()), Scratch.GetData(), &LastOffset);
	}

	TArray<int32, TInlineAllocator<16>> Indices;
	TArray<sinew_unreal::DTransform, TInlineAllocator<16>> Transforms;
	// As Unreal: no bones when there is nothing to translate.
	if (Status == SINEW_STATUS_OK && !sinew_unreal::is_nearly_zero(LastOffset))
	{
		for (const uint32 Slot : Moved)
		{
			Indices.Add(Set.bones()[Slot]);
			Transforms.Add(Model[static_cast<int32>(Slot)]);
		}
	}
	Finish(Status, Indices.GetData(), Transforms.GetData(), Indices.Num(), OutBoneTransforms);
}

bool FAnimNode_SinewHandIKRetargeting::IsValidToEvaluate(const USkeleton* Skeleton, const FBoneContainer& RequiredBones)
{
	if (!FAnimNode_SinewBase::IsValidToEvaluate(Skeleton, RequiredBones) || !RightHandFK.IsValidToEvaluate(RequiredBones) ||
		!LeftHandFK.IsValidToEvaluate(RequiredBones) || !RightHandIK.IsValidToEvaluate(RequiredBones) ||
		!LeftHandIK.IsValidToEvaluate(RequiredBones))
	{
		return false;
	}
	for (const FBoneReference& Bone : IKBonesToMove)
	{
		if (Bone.IsValidToEvaluate(RequiredBones))
		{
			return true; // at least one bone to move
		}
	}
	return false;
}

void FAnimNode_SinewHandIKRetargeting::InitializeBoneReferences(const FBoneContainer& RequiredBones)
{
	RightHandFK.Initialize(RequiredBones);
	LeftHandFK.Initialize(RequiredBones);
	RightHandIK.Initialize(RequiredBones);
	LeftHandIK.Initialize(RequiredBones);
	for (FBoneReference& Bone : IKBonesToMove)
	{
		Bone.Initialize(RequiredBones);
	}
}
