#pragma once

#include "CoreMinimal.h"
#include "BoneContainer.h"
#include "BonePose.h"
#include "BoneControllers/AnimNode_SkeletalControlBase.h"
#include "SinewNative.h"
#include "AnimNode_SinewCCDIK.generated.h"

/**
 * CCD IK solved by Sinew: a drop-in for Unreal's CCDIK node (same properties and defaults:
 * root and tip bones, effector location and space, Precision in centimetres, MaxIterations,
 * bStartFromTail, per-joint rotation limits in degrees). As in Unreal the root bone does not
 * rotate and the tip keeps its rotation relative to its parent.
 */
USTRUCT(BlueprintInternalUseOnly)
struct SINEWIK_API FAnimNode_SinewCCDIK : public FAnimNode_SkeletalControlBase
{
	GENERATED_BODY()

	/** Target of the tip bone; with a bone space, the offset from EffectorTarget. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = Effector, meta = (PinShownByDefault))
	FVector EffectorLocation = FVector::ZeroVector;

	/** Reference frame of EffectorLocation. */
	UPROPERTY(EditAnywhere, Category = Effector)
	TEnumAsByte<EBoneControlSpace> EffectorLocationSpace = BCS_ComponentSpace;

	/** Bone or socket for bone and parent-bone spaces. */
	UPROPERTY(EditAnywhere, Category = Effector)
	FBoneSocketTarget EffectorTarget;

	/** Last bone of the chain. */
	UPROPERTY(EditAnywhere, Category = Solver)
	FBoneReference TipBone;

	/** First bone of the chain (an ancestor of TipBone). */
	UPROPERTY(EditAnywhere, Category = Solver)
	FBoneReference RootBone;

	/** Distance from the target, in centimetres, at which the tip counts as arrived. */
	UPROPERTY(EditAnywhere, Category = Solver, meta = (ClampMin = "0.001", UIMin = "0.001"))
	float Precision = 1.0f;

	/** Most sweeps over the chain per evaluation. */
	UPROPERTY(EditAnywhere, Category = Solver, meta = (ClampMin = "1", UIMin = "1"))
	int32 MaxIterations = 10;

	/** Each sweep starts at the bone nearest the tip. */
	UPROPERTY(EditAnywhere, Category = Solver)
	bool bStartFromTail = true;

	/** Limit how far each joint turns from its animated rotation (RotationLimitPerJoints). */
	UPROPERTY(EditAnywhere, Category = Solver)
	bool bEnableRotationLimit = false;

	/** Degrees each joint may turn from its input rotation; index 0 is the root. Missing entries are unlimited. */
	UPROPERTY(EditAnywhere, Category = Solver, meta = (EditCondition = "bEnableRotationLimit"))
	TArray<float> RotationLimitPerJoints;

	/** Sinew: stop early when a sweep improves the reach by less than 0.1 %. */
	UPROPERTY(EditAnywhere, Category = "Solver|Sinew")
	bool bStopWhenStalled = true;

	/** Sinew: let the root bone rotate too (Unreal's node keeps it fixed). */
	UPROPERTY(EditAnywhere, Category = "Solver|Sinew")
	bool bRotateRoot = false;

	FAnimNode_SinewCCDIK() = default;

	sinew_unreal::CcdNodeParams MakeParams() const;

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

	sinew_unreal::CcdInstance Native;
	SinewIkResult LastResult{};
	SinewStatus LastStatus = SINEW_STATUS_OK;
};
