#include "SinewChain.h"

void SinewIK::CacheChain(const FBoneContainer& RequiredBones, const FBoneReference& Root, const FBoneReference& Tip,
	TArray<int32>& OutChain)
{
	OutChain.Reset();
	const FCompactPoseBoneIndex RootIndex = Root.GetCompactPoseIndex(RequiredBones);
	const FCompactPoseBoneIndex TipIndex = Tip.GetCompactPoseIndex(RequiredBones);
	if (RootIndex == INDEX_NONE || TipIndex == INDEX_NONE)
	{
		return;
	}
	OutChain.SetNumUninitialized(RequiredBones.GetCompactPoseNumBones());
	const auto ParentOf = [&RequiredBones](int32_t Bone)
	{
		return static_cast<int32_t>(RequiredBones.GetParentBoneIndex(FCompactPoseBoneIndex(Bone)).GetInt());
	};
	const size_t Count = sinew_unreal::collect_chain(RootIndex.GetInt(), TipIndex.GetInt(), ParentOf,
		OutChain.GetData(), static_cast<size_t>(OutChain.Num()));
	OutChain.SetNum(static_cast<int32>(Count));
}

uint32 SinewIK::GatherChain(FCSPose<FCompactPose>& Pose, const TArray<int32>& Chain, FChainBuffers& Buffers)
{
	const int32 Count = Chain.Num();
	Buffers.Chain.SetNum(Count);
	Buffers.Scratch.SetNumUninitialized(Count);
	for (int32 I = 0; I < Count; ++I)
	{
		Buffers.Chain[I] = ToSinew(Pose.GetComponentSpaceTransform(FCompactPoseBoneIndex(Chain[I])));
	}
	Buffers.bHasRootParent = false;
	if (Count > 0)
	{
		const FCompactPoseBoneIndex Parent = Pose.GetPose().GetParentBoneIndex(FCompactPoseBoneIndex(Chain[0]));
		if (Parent != INDEX_NONE)
		{
			Buffers.RootParentRotation = ToSinew(Pose.GetComponentSpaceTransform(Parent).GetRotation());
			Buffers.bHasRootParent = true;
		}
	}
	return static_cast<uint32>(Count);
}
