#pragma once

#include "CoreMinimal.h"
#include "AnimNode_SinewBase.h"
#include "AnimNode_SinewHandIKRetargeting.generated.h"

/**
 * Hand IK retargeting by Sinew: a drop-in for Unreal's Hand IK Retargeting node. Moves the
 * IK bones by the component-space offset from the IK hands to the FK hands, mixed by
 * HandFKWeight (0 left hand, 1 right hand) and scaled per axis; rotations are untouched, so
 * props held by both hands stay attached on characters of other proportions.
 */
USTRUCT(BlueprintInternalUseOnly)
struct SINEWIK_API FAnimNode_SinewHandIKRetargeting : public FAnimNode_SinewBase
{
	GENERATED_BODY()

	/** Right hand, FK (animated) bone. */
	UPROPERTY(EditAnywhere, Category = "HandIKRetargeting")
	FBoneReference RightHandFK;

	/** Left hand, FK (animated) bone. */
	UPROPERTY(EditAnywhere, Category = "HandIKRetargeting")
	FBoneReference LeftHandFK;

	/** Right hand IK bone. */
	UPROPERTY(EditAnywhere, Category = "HandIKRetargeting")
	FBoneReference RightHandIK;

	/** Left hand IK bone. */
	UPROPERTY(EditAnywhere, Category = "HandIKRetargeting")
	FBoneReference LeftHandIK;

	/** Bones moved by the offset (e.g. ik_hand_root or the IK hands); each moves once. */
	UPROPERTY(EditAnywhere, Category = "HandIKRetargeting")
	TArray<FBoneReference> IKBonesToMove;

	/** Per-axis scale of the offset, each in [0, 1]. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "HandIKRetargeting", meta = (PinHiddenByDefault))
	FVector PerAxisAlpha = FVector(1.0, 1.0, 1.0);

	/** Which hand drives the offset: 0 the left, 1 the right, 0.5 both equally. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "HandIKRetargeting", meta = (PinShownByDefault, ClampMin = "0.0", ClampMax = "1.0"))
	float HandFKWeight = 0.5f;

	FAnimNode_SinewHandIKRetargeting() = default;

	sinew_unreal::HandIkNodeParams MakeParams() const;

	// FAnimNode_SkeletalControlBase interface
	virtual void EvaluateSkeletalControl_AnyThread(FComponentSpacePoseContext& Output, TArray<FBoneTransform>& OutBoneTransforms) override;
	virtual bool IsValidToEvaluate(const USkeleton* Skeleton, const FBoneContainer& RequiredBones) override;
	// End of FAnimNode_SkeletalControlBase interface

protected:
	// FAnimNode_SkeletalControlBase interface
	virtual void InitializeBoneReferences(const FBoneContainer& RequiredBones) override;
	// End of FAnimNode_SkeletalControlBase interface

	virtual const TCHAR* GetSinewName() const override { return TEXT("Sinew Hand IK Retargeting"); }
	virtual FString GetDebugDetails() const override;

private:
	/** Created on first evaluation; a copied node starts without one (never shared). */
	sinew_unreal::HandIkInstance Native;
	sinew_unreal::DVec3 LastOffset;
};
