#include "AnimNode_SinewBase.h"

#include "Animation/AnimInstanceProxy.h"

void FAnimNode_SinewBase::GatherDebugData(FNodeDebugData& DebugData)
{
	FString DebugLine = DebugData.GetNodeName(this);
	DebugLine += TEXT("(");
	AddDebugNodeData(DebugLine);
	DebugLine += FString::Printf(TEXT(" %s, Sinew %s)"), *GetDebugDetails(),
		ANSI_TO_TCHAR(sinew_unreal::status_name(LastStatus)));
	DebugData.AddDebugItem(DebugLine);
	ComponentPose.GatherDebugData(DebugData);
}

bool FAnimNode_SinewBase::IsValidToEvaluate(const USkeleton* /*Skeleton*/, const FBoneContainer& /*RequiredBones*/)
{
	return SinewIK::IsLibraryReady();
}

void FAnimNode_SinewBase::Finish(SinewStatus Status, const int32* Indices, const sinew_unreal::DTransform* Transforms,
	int32 Count, TArray<FBoneTransform>& OutBoneTransforms)
{
	SinewIK::ReportStatus(GetSinewName(), Status, LastStatus);
	if (Status == SINEW_STATUS_OK)
	{
		SinewIK::AppendSortedBoneTransforms(Indices, Transforms, Count, OutBoneTransforms);
	}
}

void FAnimNode_SinewIKBase::Initialize_AnyThread(const FAnimationInitializeContext& Context)
{
	FAnimNode_SinewBase::Initialize_AnyThread(Context);
	EffectorTarget.Initialize(Context.AnimInstanceProxy);
}

void FAnimNode_SinewIKBase::EvaluateSkeletalControl_AnyThread(FComponentSpacePoseContext& Output,
	TArray<FBoneTransform>& OutBoneTransforms)
{
	check(OutBoneTransforms.Num() == 0);

	const SinewIK::FTargetSpace Effector = GetEffector();
	const FTransform EffectorCS = SinewIK::TargetTransformInComponentSpace(Output, EffectorTarget, Effector);

	// Component space, doubles; each solve converts to floats relative to the chain's root.
	SinewIK::FChainBuffers Buffers;
	const int32 Count = CachedChain.Num();
	Buffers.Chain.SetNum(Count);
	Buffers.Scratch.SetNumUninitialized(Count);
	for (int32 I = 0; I < Count; ++I)
	{
		Buffers.Chain[I] = SinewIK::ToSinew(Output.Pose.GetComponentSpaceTransform(FCompactPoseBoneIndex(CachedChain[I])));
	}
	const FCompactPoseBoneIndex RootParent = Output.Pose.GetPose().GetParentBoneIndex(FCompactPoseBoneIndex(CachedChain[0]));
	Buffers.bHasRootParent = RootParent != INDEX_NONE;
	if (Buffers.bHasRootParent)
	{
		Buffers.RootParentRotation = SinewIK::ToSinew(Output.Pose.GetComponentSpaceTransform(RootParent).GetRotation());
	}

	const SinewStatus Status = Solve(Output, EffectorCS, Buffers, static_cast<uint32>(Count));
	Finish(Status, CachedChain.GetData(), Buffers.Chain.GetData(), Count, OutBoneTransforms);
}

bool FAnimNode_SinewIKBase::IsValidToEvaluate(const USkeleton* Skeleton, const FBoneContainer& RequiredBones)
{
	return FAnimNode_SinewBase::IsValidToEvaluate(Skeleton, RequiredBones) && CachedChain.Num() >= 2 &&
		SinewIK::IsTargetValid(EffectorTarget, GetEffector().Space, RequiredBones);
}

void FAnimNode_SinewIKBase::InitializeBoneReferences(const FBoneContainer& RequiredBones)
{
	EffectorTarget.InitializeBoneReferences(RequiredBones);
	CachedChain.Reset();
	CacheChain(RequiredBones, CachedChain);
}

FString FAnimNode_SinewIKBase::GetDebugDetails() const
{
	return FString::Printf(TEXT("%s, error %.3f cm in %u iterations, reached %u"), *GetChainName(), LastResult.error,
		LastResult.iterations, LastResult.reached);
}

bool FAnimNode_SinewChainIKBase::IsValidToEvaluate(const USkeleton* Skeleton, const FBoneContainer& RequiredBones)
{
	return FAnimNode_SinewIKBase::IsValidToEvaluate(Skeleton, RequiredBones) && TipBone.IsValidToEvaluate(RequiredBones) &&
		RootBone.IsValidToEvaluate(RequiredBones) && sinew_unreal::chain_params_valid(Precision, MaxIterations);
}

void SinewIK::CacheBoneChain(FBoneReference& Root, FBoneReference& Tip, const FBoneContainer& RequiredBones,
	TArray<int32>& OutChain)
{
	Tip.Initialize(RequiredBones);
	Root.Initialize(RequiredBones);
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
	const size_t Count = sinew_unreal::collect_chain(RootIndex.GetInt(), TipIndex.GetInt(), ParentOf, OutChain.GetData(),
		static_cast<size_t>(OutChain.Num()));
	OutChain.SetNum(static_cast<int32>(Count));
}

FString SinewIK::BoneChainName(const FBoneReference& Root, const FBoneReference& Tip)
{
	return FString::Printf(TEXT("%s -> %s"), *Root.BoneName.ToString(), *Tip.BoneName.ToString());
}

void FAnimNode_SinewChainIKBase::CacheChain(const FBoneContainer& RequiredBones, TArray<int32>& OutChain)
{
	SinewIK::CacheBoneChain(RootBone, TipBone, RequiredBones, OutChain);
}

FString FAnimNode_SinewChainIKBase::GetChainName() const
{
	return SinewIK::BoneChainName(RootBone, TipBone);
}

void FAnimNode_SinewChainIKBase::MakeChainParams(sinew_unreal::ChainNodeParams& Params) const
{
	Params.precision = Precision;
	Params.max_iterations = MaxIterations;
	Params.stop_when_stalled = bStopWhenStalled;
}
