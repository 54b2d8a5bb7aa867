#include "SinewNative.h"

#include "AnimationRuntime.h"
#include "Animation/AnimInstanceProxy.h"
#include "Animation/BoneSocketReference.h"
#include "SinewIKLog.h"

FTransform SinewIK::TargetTransformInComponentSpace(FComponentSpacePoseContext& Output, FBoneSocketTarget& Target,
	const FTargetSpace& Where)
{
	const FTransform& ComponentTransform = Output.AnimInstanceProxy->GetComponentTransform();
	if (Where.Space == BCS_BoneSpace)
	{
		return Target.GetTargetTransform(Where.Offset, Output.Pose, ComponentTransform);
	}
	// World, component and parent-bone space; a socket target resolves to its bone's parent.
	FTransform Out = Where.Offset;
	FAnimationRuntime::ConvertBoneSpaceTransformToCS(ComponentTransform, Output.Pose, Out,
		Target.GetCompactPoseBoneIndex(), Where.Space);
	return Out;
}

bool SinewIK::IsTargetValid(const FBoneSocketTarget& Target, EBoneControlSpace Space, const FBoneContainer& RequiredBones)
{
	const bool bNeedsBone = Space == BCS_ParentBoneSpace || Space == BCS_BoneSpace;
	return !bNeedsBone || Target.IsValidToEvaluate(RequiredBones);
}

void SinewIK::ReportStatus(const TCHAR* NodeName, SinewStatus Status, SinewStatus& InOutLastStatus)
{
	if (Status != SINEW_STATUS_OK && Status != InOutLastStatus)
	{
		const std::string Message = sinew::last_error_message();
		UE_LOG(LogSinewIK, Warning, TEXT("%s: Sinew returned %s (%s); the input pose passes through"), NodeName,
			ANSI_TO_TCHAR(sinew_unreal::status_name(Status)), UTF8_TO_TCHAR(Message.c_str()));
	}
	InOutLastStatus = Status;
}

void SinewIK::AppendSortedBoneTransforms(const int32* Indices, const sinew_unreal::DTransform* Transforms,
	int32 Count, TArray<FBoneTransform>& Out)
{
	TArray<sinew_unreal::BoneTransformOut, TInlineAllocator<32>> Sorted;
	Sorted.SetNum(Count);
	const size_t N = sinew_unreal::build_bone_transforms(Indices, Transforms, static_cast<size_t>(Count), Sorted.GetData());
	Out.Reserve(Out.Num() + static_cast<int32>(N));
	for (size_t I = 0; I < N; ++I)
	{
		Out.Add(FBoneTransform(FCompactPoseBoneIndex(Sorted[I].bone_index), ToUnreal(Sorted[I].transform)));
	}
}
