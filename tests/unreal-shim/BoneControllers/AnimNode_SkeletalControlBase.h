// UNREAL SHIM: syntax check only, NOT Unreal Engine and not a substitute for an engine build.
// Declares just what the SinewIK plugin uses (see tests/unreal-shim/README.md).
#pragma once

#include "CoreMinimal.h"
#include "BonePose.h"
#include "Animation/AnimNodeBase.h"
#include "Animation/AnimTypes.h"
#include "Animation/BoneSocketReference.h"

struct FAnimNode_SkeletalControlBase : public FAnimNode_Base
{
	FComponentSpacePoseLink ComponentPose;
	int32 LODThreshold = INDEX_NONE;
	float ActualAlpha = 0.0f;
	float Alpha = 1.0f;

	virtual void Initialize_AnyThread(const FAnimationInitializeContext& Context) override;
	virtual void CacheBones_AnyThread(const FAnimationCacheBonesContext& Context) override;
	virtual void Update_AnyThread(const FAnimationUpdateContext& Context) override final;
	virtual void EvaluateComponentSpace_AnyThread(FComponentSpacePoseContext& Output) override final;

protected:
	virtual void EvaluateSkeletalControl_AnyThread(FComponentSpacePoseContext& Output, TArray<FBoneTransform>& OutBoneTransforms);
	virtual bool IsValidToEvaluate(const USkeleton* /*Skeleton*/, const FBoneContainer& /*RequiredBones*/) { return false; }
	virtual void InitializeBoneReferences(const FBoneContainer& /*RequiredBones*/) {}
	void AddDebugNodeData(FString& OutDebugData);
};
