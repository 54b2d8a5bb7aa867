#include "AnimNode_SinewMultiFabrik.h"

sinew_unreal::MultiFabrikNodeParams FAnimNode_SinewMultiFabrik::MakeParams() const
{
	sinew_unreal::MultiFabrikNodeParams Params;
	Params.precision = Precision;
	Params.max_iterations = MaxIterations;
	Params.stop_when_stalled = bStopWhenStalled;
	Params.effector_rotation_source = static_cast<sinew_unreal::BoneRotationSource>(EffectorRotationSource.GetValue());
	return Params;
}

void FAnimNode_SinewMultiFabrik::Initialize_AnyThread(const FAnimationInitializeContext& Context)
{
	FAnimNode_SinewBase::Initialize_AnyThread(Context);
	for (FSinewMultiFabrikEffector& Effector : Effectors)
	{
		Effector.EffectorTarget.Initialize(Context.AnimInstanceProxy);
	}
}

void FAnimNode_SinewMultiFabrik::EvaluateSkeletalControl_AnyThread(FComponentSpacePoseContext& Output,
	TArray<FBoneTransform>& OutBoneTransforms)
{
	check(OutBoneTransforms.Num() == 0);

	const int32 EffectorCount = CachedEffectorSlots.Num();
	TArray<sinew_unreal::EffectorGoal, TInlineAllocator<8>> Goals;
	Goals.SetNum(EffectorCount);
	for (int32 K = 0; K < EffectorCount; ++K)
	{
		FSinewMultiFabrikEffector& Effector = Effectors[K];
		const SinewIK::FTargetSpace Where{Effector.EffectorTransformSpace, Effector.EffectorTransform};
		const FTransform GoalCS = SinewIK::TargetTransformInComponentSpace(Output, Effector.EffectorTarget, Where);
		Goals[K].position = SinewIK::ToSinew(GoalCS.GetTranslation());
		Goals[K].rotation = SinewIK::ToSinew(GoalCS.GetRotation());
		Goals[K].weight = Effector.Weight;
		Goals[K].use_rotation = Effector.bUseRotation;
	}
	if (!sinew_unreal::multi_fabrik_has_effect(Goals.GetData(), static_cast<size_t>(EffectorCount)))
	{
		return; // no effector pulls: the pose passes through
	}

	// Component space, doubles; the solve converts to floats relative to the root.
	const int32 Count = CachedBones.Num();
	TArray<sinew_unreal::DTransform, TInlineAllocator<32>> Model;
	TArray<SinewTransform, TInlineAllocator<32>> Scratch;
	TArray<SinewEffectorTarget, TInlineAllocator<8>> Targets;
	Model.SetNum(Count);
	Scratch.SetNumUninitialized(Count);
	Targets.SetNumUninitialized(EffectorCount);
	for (int32 I = 0; I < Count; ++I)
	{
		Model[I] = SinewIK::ToSinew(Output.Pose.GetComponentSpaceTransform(FCompactPoseBoneIndex(CachedBones[I])));
	}
	LastResults.SetNum(EffectorCount);

	SinewStatus Status = Native.prepare(sinew_unreal::multi_fabrik_settings(MakeParams()), static_cast<uint32>(Count),
		static_cast<uint32>(EffectorCount));
	if (Status == SINEW_STATUS_OK)
	{
		Status = sinew_unreal::solve_multi_fabrik(Native.get(), NativeTree.get(), Model.GetData(), static_cast<uint32>(Count),
			0, CachedEffectorSlots.GetData(), static_cast<uint32>(EffectorCount), Goals.GetData(), Targets.GetData(),
			Scratch.GetData(), Model.GetData(), LastResults.GetData());
	}
	Finish(Status, CachedBones.GetData(), Model.GetData(), Count, OutBoneTransforms);
}

bool FAnimNode_SinewMultiFabrik::IsValidToEvaluate(const USkeleton* Skeleton, const FBoneContainer& RequiredBones)
{
	if (!FAnimNode_SinewBase::IsValidToEvaluate(Skeleton, RequiredBones) || NativeTree.get() == nullptr ||
		!RootBone.IsValidToEvaluate(RequiredBones) || !sinew_unreal::chain_params_valid(Precision, MaxIterations) ||
		CachedEffectorSlots.Num() == 0 || CachedEffectorSlots.Num() != Effectors.Num())
	{
		return false;
	}
	// The effectors are those the tree was cached for (a pin may have replaced the array).
	for (int32 K = 0; K < Effectors.Num(); ++K)
	{
		const FSinewMultiFabrikEffector& Effector = Effectors[K];
		if (Effector.Bone.BoneName != CachedEffectorNames[K] ||
			!SinewIK::IsTargetValid(Effector.EffectorTarget, Effector.EffectorTransformSpace, RequiredBones))
		{
			return false;
		}
	}
	return true;
}

void FAnimNode_SinewMultiFabrik::InitializeBoneReferences(const FBoneContainer& RequiredBones)
{
	CachedBones.Reset();
	CachedEffectorSlots.Reset();
	CachedEffectorNames.Reset();
	NativeTree.reset();
	RootBone.Initialize(RequiredBones);
	TArray<int32, TInlineAllocator<8>> Tips;
	bool bAllFound = RootBone.GetCompactPoseIndex(RequiredBones) != INDEX_NONE && Effectors.Num() > 0;
	for (FSinewMultiFabrikEffector& Effector : Effectors)
	{
		Effector.Bone.Initialize(RequiredBones);
		Effector.EffectorTarget.InitializeBoneReferences(RequiredBones);
		const FCompactPoseBoneIndex Tip = Effector.Bone.GetCompactPoseIndex(RequiredBones);
		bAllFound = bAllFound && Tip != INDEX_NONE;
		Tips.Add(Tip.GetInt());
	}
	if (!bAllFound)
	{
		return;
	}

	const int32 Capacity = RequiredBones.GetCompactPoseNumBones();
	TArray<int32> Parents;
	TArray<uint32> Slots;
	CachedBones.SetNumUninitialized(Capacity);
	Parents.SetNumUninitialized(Capacity);
	Slots.SetNumUninitialized(Tips.Num());
	const auto ParentOf = [&RequiredBones](int32_t Bone)
	{
		return static_cast<int32_t>(RequiredBones.GetParentBoneIndex(FCompactPoseBoneIndex(Bone)).GetInt());
	};
	const size_t Count = sinew_unreal::collect_tree(RootBone.GetCompactPoseIndex(RequiredBones).GetInt(), Tips.GetData(),
		static_cast<size_t>(Tips.Num()), ParentOf, CachedBones.GetData(), Parents.GetData(), Slots.GetData(),
		static_cast<size_t>(Capacity));
	CachedBones.SetNum(static_cast<int32>(Count));
	if (Count == 0)
	{
		return;
	}
	TArray<SinewTransform> Scratch;
	Scratch.SetNumUninitialized(static_cast<int32>(Count));
	const SinewStatus Status = NativeTree.build(Parents.GetData(), static_cast<uint32>(Count), Scratch.GetData());
	SinewIK::ReportStatus(GetSinewName(), Status, LastStatus);
	if (Status != SINEW_STATUS_OK)
	{
		CachedBones.Reset();
		return;
	}
	for (int32 K = 0; K < Effectors.Num(); ++K)
	{
		CachedEffectorSlots.Add(Slots[K]);
		CachedEffectorNames.Add(Effectors[K].Bone.BoneName);
	}
}

FString FAnimNode_SinewMultiFabrik::GetDebugDetails() const
{
	FString Details = FString::Printf(TEXT("%s ->"), *RootBone.BoneName.ToString());
	for (int32 K = 0; K < Effectors.Num(); ++K)
	{
		const bool bSolved = K < LastResults.Num();
		Details += FString::Printf(TEXT(" %s (error %.3f cm, reached %u)"), *Effectors[K].Bone.BoneName.ToString(),
			bSolved ? LastResults[K].error : 0.0f, bSolved ? LastResults[K].reached : 0u);
	}
	if (LastResults.Num() > 0)
	{
		Details += FString::Printf(TEXT(", %u iterations"), LastResults[0].iterations);
	}
	return Details;
}
