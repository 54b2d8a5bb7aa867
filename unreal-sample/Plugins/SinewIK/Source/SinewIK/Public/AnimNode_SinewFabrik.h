#pragma once

#include "CoreMinimal.h"
#include "BoneContainer.h"
#include "BonePose.h"
#include "BoneControllers/AnimNode_SkeletalControlBase.h"
#include "SinewNative.h"
#include "AnimNode_SinewFabrik.generated.h"

/**
 * FABRIK solved by Sinew: a drop-in for Unreal's FABRIK node (same properties and defaults:
 * root and tip bones, effector transform and space, Precision in centimetres, MaxIterations,
 * EffectorRotationSource). Bone lengths are kept; the chain's root stays in place.
 */
USTRUCT(BlueprintInternalUseOnly)
struct SINEWIK_API FAnimNode_SinewFabrik : public FAnimNode_SkeletalControlBase
{
	GENERATED_BODY()

	/** Target of the tip bone; with a bone space, the offset from EffectorTarget. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = EndEffector, meta = (PinShownByDefault))
	FTransform EffectorTransform = FTransform::Identity;

	/** Bone or socket for bone and parent-bone spaces. */
	UPROPERTY(EditAnywhere, Category = EndEffector)
	FBoneSocketTarget EffectorTarget;

	/** Reference frame of EffectorTransform. */
	UPROPERTY(EditAnywhere, Category = EndEffector)
	TEnumAsByte<EBoneControlSpace> EffectorTransformSpace = BCS_ComponentSpace;

	/** Rotation of the tip bone after the solve. */
	UPROPERTY(EditAnywhere, Category = EndEffector)
	TEnumAsByte<EBoneRotationSource> EffectorRotationSource = BRS_KeepLocalSpaceRotation;

	/** Last bone of the chain. */
	UPROPERTY(EditAnywhere, Category = Solver)
	FBoneReference TipBone;

	/** First bone of the chain (an ancestor of TipBone). */
	UPROPERTY(EditAnywhere, Category = Solver)
	FBoneReference RootBone;

	/** Distance from the target, in centimetres, at which the tip counts as arrived. */
	UPROPERTY(EditAnywhere, Category = Solver, meta = (ClampMin = "0.001", UIMin = "0.001"))
	float Precision = 1.0f;

	/** Most iterations per evaluation. */
	UPROPERTY(EditAnywhere, Category = Solver, meta = (ClampMin = "1", UIMin = "1"))
	int32 MaxIterations = 10;

	/** Sinew: stop early when an iteration improves the reach by less than 0.1 %. */
	UPROPERTY(EditAnywhere, Category = "Solver|Sinew")
	bool bStopWhenStalled = true;

	FAnimNode_SinewFabrik() = default;

	sinew_unreal::FabrikNodeParams MakeParams() const;

	const SinewIkResult& GetLastResult() const { return LastResult; }
	SinewStatus GetLastStatus() const { return LastStatus; }

	// FAnimNode_Base interface
	virtual void GatherDebugData(FNodeDebugData& DebugData) override;
	virtual void Initialize_AnyThread(const FAnimationInitializeContext& Context) override;
	// End of FAnimNode_Base interface

	// FAnimNode_SkeletalControlBase interface
	virtual void EvaluateSkeletalControl_AnyThread(FComponentSpacePoseContext& Output, TArray<FBoneTransform>& OutBoneTransforms) override;
	virtual bool IsValidToEvaluate(const USkeleton* Skeleton, const FBoneContainer& RequiredBones) override;
	// End of FAnimNode_SkeletalControlBase interface

private:
	// FAnimNode_SkeletalControlBase interface
	virtual void InitializeBoneReferences(const FBoneContainer& RequiredBones) override;
	// End of FAnimNode_SkeletalControlBase interface

	/** Compact pose indices from RootBone to TipBone, refreshed when the required bones change. */
	TArray<int32> CachedChain;

	sinew_unreal::FabrikInstance Native;
	SinewIkResult LastResult{};
	SinewStatus LastStatus = SINEW_STATUS_OK;
};
