#include "AnimNode_SinewCCDIK.h"

#include "Animation/AnimInstanceProxy.h"
#include "SinewChain.h"
#include "SinewIKLog.h"

sinew_unreal::CcdNodeParams FAnimNode_SinewCCDIK::MakeParams() const
{
	sinew_unreal::CcdNodeParams Params;
	Params.precision = Precision;
	Params.max_iterations = MaxIterations;
	Params.start_from_tail = bStartFromTail;
	Params.enable_rotation_limit = bEnableRotationLimit;
	Params.stop_when_stalled = bStopWhenStalled;
	Params.rotate_root = bRotateRoot;
	return Params;
}

void FAnimNode_SinewCCDIK::GatherDebugData(FNodeDebugData& DebugData)
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

void FAnimNode_SinewCCDIK::Initialize_AnyThread(const FAnimationInitializeContext& Context)
{
	FAnimNode_SkeletalControlBase::Initialize_AnyThread(Context);
	EffectorTarget.Initialize(Context.AnimInstanceProxy);
}

void FAnimNode_SinewCCDIK::EvaluateSkeletalControl_AnyThread(FComponentSpacePoseContext& Output,
	TArray<FBoneTransform>& OutBoneTransforms)
{
	check(OutBoneTransforms.Num() == 0);

	const FTransform EffectorCS = SinewIK::TargetTransformInComponentSpace(
		Output.AnimInstanceProxy->GetComponentTransform(), Output.Pose, EffectorTarget, EffectorLocationSpace,
		FTransform(EffectorLocation));

	SinewIK::FChainBuffers Buffers;
	const uint32 Count = SinewIK::GatherChain(Output.Pose, CachedChain, Buffers);

	const sinew_unreal::CcdNodeParams Params = MakeParams();
	SinewStatus Status = Native.prepare(sinew_unreal::ccd_settings(Params), Count);
	if (Status == SINEW_STATUS_OK)
	{
		// Limits are per chain joint and cheap to set; setting them every evaluation keeps them
		// right when a pin drives the array or the solver was recreated for a longer chain.
		Status = sinew_unreal::apply_ccd_rotation_limits(Native.get(), Count, Params.enable_rotation_limit,
			RotationLimitPerJoints.GetData(), static_cast<size_t>(RotationLimitPerJoints.Num()));
	}
	if (Status == SINEW_STATUS_OK)
	{
		Status = sinew_unreal::solve_ccd(Native.get(), Buffers.Chain.GetData(), Count, Buffers.RootParentRotationPtr(),
			SinewIK::ToSinew(EffectorCS.GetTranslation()), nullptr, Buffers.Scratch.GetData(), Buffers.Chain.GetData(),
			&LastResult);
	}
	SinewIK::ReportStatus(TEXT("Sinew CCDIK"), Status, LastStatus);
	if (Status != SINEW_STATUS_OK)
	{
		return;
	}
	SinewIK::AppendSortedBoneTransforms(CachedChain.GetData(), Buffers.Chain.GetData(), CachedChain.Num(), OutBoneTransforms);
}

bool FAnimNode_SinewCCDIK::IsValidToEvaluate(const USkeleton* Skeleton, const FBoneContainer& RequiredBones)
{
	if (EffectorLocationSpace == BCS_ParentBoneSpace || EffectorLocationSpace == BCS_BoneSpace)
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

void FAnimNode_SinewCCDIK::InitializeBoneReferences(const FBoneContainer& RequiredBones)
{
	TipBone.Initialize(RequiredBones);
	RootBone.Initialize(RequiredBones);
	EffectorTarget.InitializeBoneReferences(RequiredBones);
	SinewIK::CacheChain(RequiredBones, RootBone, TipBone, CachedChain);
}
