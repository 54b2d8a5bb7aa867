#include "AnimNode_SinewFabrik.h"

#include "Animation/AnimInstanceProxy.h"
#include "SinewChain.h"
#include "SinewIKLog.h"

static_assert(BRS_KeepComponentSpaceRotation == 0 && BRS_KeepLocalSpaceRotation == 1 && BRS_CopyFromTarget == 2,
	"sinew_unreal::BoneRotationSource mirrors EBoneRotationSource");

sinew_unreal::FabrikNodeParams FAnimNode_SinewFabrik::MakeParams() const
{
	sinew_unreal::FabrikNodeParams Params;
	Params.precision = Precision;
	Params.max_iterations = MaxIterations;
	Params.effector_rotation_source = static_cast<sinew_unreal::BoneRotationSource>(EffectorRotationSource.GetValue());
	Params.stop_when_stalled = bStopWhenStalled;
	return Params;
}

void FAnimNode_SinewFabrik::GatherDebugData(FNodeDebugData& DebugData)
{
	FString DebugLine = DebugData.GetNodeName(this);
	DebugLine += TEXT("(");
	AddDebugNodeData(DebugLine);
	DebugLine += FString::Printf(TEXT(" %s -> %s, Sinew %s, error %.3f cm in %u iterations)"),
		*RootBone.BoneName.ToString(), *TipBone.BoneName.ToString(), ANSI_TO_TCHAR(sinew_unreal::status_name(LastStatus)),
		LastResult.error, LastResult.iterations);
	DebugData.AddDebugItem(DebugLine);
	ComponentPose.GatherDebugData(DebugData);
}

void FAnimNode_SinewFabrik::Initialize_AnyThread(const FAnimationInitializeContext& Context)
{
	FAnimNode_SkeletalControlBase::Initialize_AnyThread(Context);
	EffectorTarget.Initialize(Context.AnimInstanceProxy);
}

void FAnimNode_SinewFabrik::EvaluateSkeletalControl_AnyThread(FComponentSpacePoseContext& Output,
	TArray<FBoneTransform>& OutBoneTransforms)
{
	check(OutBoneTransforms.Num() == 0);

	const FTransform EffectorCS = SinewIK::TargetTransformInComponentSpace(
		Output.AnimInstanceProxy->GetComponentTransform(), Output.Pose, EffectorTarget, EffectorTransformSpace,
		EffectorTransform);
	const sinew_unreal::DQuat EffectorRotation = SinewIK::ToSinew(EffectorCS.GetRotation());

	SinewIK::FChainBuffers Buffers;
	const uint32 Count = SinewIK::GatherChain(Output.Pose, CachedChain, Buffers);

	SinewStatus Status = Native.prepare(sinew_unreal::fabrik_settings(MakeParams()), Count);
	if (Status == SINEW_STATUS_OK)
	{
		Status = sinew_unreal::solve_fabrik(Native.get(), Buffers.Chain.GetData(), Count, Buffers.RootParentRotationPtr(),
			SinewIK::ToSinew(EffectorCS.GetTranslation()), &EffectorRotation, Buffers.Scratch.GetData(),
			Buffers.Chain.GetData(), &LastResult);
	}
	SinewIK::ReportStatus(TEXT("Sinew FABRIK"), Status, LastStatus);
	if (Status != SINEW_STATUS_OK)
	{
		return;
	}
	SinewIK::AppendSortedBoneTransforms(CachedChain.GetData(), Buffers.Chain.GetData(), CachedChain.Num(), OutBoneTransforms);
}

bool FAnimNode_SinewFabrik::IsValidToEvaluate(const USkeleton* Skeleton, const FBoneContainer& RequiredBones)
{
	if (EffectorTransformSpace == BCS_ParentBoneSpace || EffectorTransformSpace == BCS_BoneSpace)
	{
		if (!EffectorTarget.IsValidToEvaluate(RequiredBones))
		{
			return false;
		}
	}
	return SinewIK::IsLibraryReady() && TipBone.IsValidToEvaluate(RequiredBones) &&
		RootBone.IsValidToEvaluate(RequiredBones) && sinew_unreal::chain_params_valid(Precision, MaxIterations) &&
		CachedChain.Num() >= 2;
}

void FAnimNode_SinewFabrik::InitializeBoneReferences(const FBoneContainer& RequiredBones)
{
	TipBone.Initialize(RequiredBones);
	RootBone.Initialize(RequiredBones);
	EffectorTarget.InitializeBoneReferences(RequiredBones);
	SinewIK::CacheChain(RequiredBones, RootBone, TipBone, CachedChain);
}
