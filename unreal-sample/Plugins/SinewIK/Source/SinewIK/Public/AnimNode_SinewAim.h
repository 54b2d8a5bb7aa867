#pragma once

#include "CoreMinimal.h"
#include "AnimNode_SinewBase.h"
#include "AnimNode_SinewAim.generated.h"

/**
 * Aim / look-at solved by Sinew ("Sinew Aim"): turns the chain from RootBone to TipBone (spine to
 * head, or one bone when both are the same) so that AimAxis of the tip bone, from AimOffset (eyes,
 * a muzzle; it need not lie on the axis), points at TargetLocation. The turn is shared by
 * JointWeights (index 0 is the root; missing entries 1) under JointMaxAngles (degrees from the
 * animated pose; missing entries unlimited) and MaxAngleDegrees for the whole chain: past the
 * limits the chain holds at the limit, then eases back as the target reaches exactly behind,
 * never flipping to the other side. With bUseUpTarget the tip rolls UpAxis toward UpTarget (a
 * component-space direction, or a position with bUpTargetIsPosition). See the Sinew README,
 * "Aim and look-at".
 */
USTRUCT(BlueprintInternalUseOnly)
struct SINEWIK_API FAnimNode_SinewAim : public FAnimNode_SinewIKBase
{
	GENERATED_BODY()

	/** Bone that aims (the head, the hand holding the gun). */
	UPROPERTY(EditAnywhere, Category = Solver)
	FBoneReference TipBone;

	/** First bone that turns (an ancestor of TipBone, or TipBone itself). */
	UPROPERTY(EditAnywhere, Category = Solver)
	FBoneReference RootBone;

	/** The point to aim at; with a bone space, the offset from EffectorTarget. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = Target, meta = (PinShownByDefault))
	FVector TargetLocation = FVector(100.0, 0.0, 0.0);

	/** Reference frame of TargetLocation. */
	UPROPERTY(EditAnywhere, Category = Target)
	TEnumAsByte<EBoneControlSpace> TargetLocationSpace = BCS_ComponentSpace;

	/** Direction in the tip bone's frame that points at the target (Unreal's LookAt_Axis default). */
	UPROPERTY(EditAnywhere, Category = Solver)
	FVector AimAxis = FVector(1.0, 0.0, 0.0);

	/** Aim origin in the tip bone's frame, in centimetres (eyes, a muzzle). */
	UPROPERTY(EditAnywhere, Category = Solver)
	FVector AimOffset = FVector::ZeroVector;

	/** Whether the tip rolls UpAxis toward UpTarget; otherwise roll is minimal. */
	UPROPERTY(EditAnywhere, Category = Up)
	bool bUseUpTarget = false;

	/** Direction in the tip bone's frame turned toward UpTarget (not along AimAxis). */
	UPROPERTY(EditAnywhere, Category = Up)
	FVector UpAxis = FVector(0.0, 0.0, 1.0);

	/** Component-space up direction, or a position with bUpTargetIsPosition. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = Up, meta = (PinHiddenByDefault))
	FVector UpTarget = FVector(0.0, 0.0, 1.0);

	/** UpTarget is a component-space position (a pole) rather than a direction. */
	UPROPERTY(EditAnywhere, Category = Up)
	bool bUpTargetIsPosition = false;

	/** Largest turn of the whole chain, in degrees (180: unlimited). */
	UPROPERTY(EditAnywhere, Category = Limits, meta = (ClampMin = "0", ClampMax = "180"))
	float MaxAngleDegrees = 180.0f;

	/** Each bone's share of the turn, root first (missing entries 1; 0 does not turn). */
	UPROPERTY(EditAnywhere, Category = Limits)
	TArray<float> JointWeights;

	/** Each bone's largest turn in degrees, root first (missing entries 180). */
	UPROPERTY(EditAnywhere, Category = Limits)
	TArray<float> JointMaxAngles;

	/** Residual aim angle in radians at which the passes stop. */
	UPROPERTY(EditAnywhere, Category = "Solver|Sinew", meta = (ClampMin = "0.000001"))
	float Tolerance = 1e-4f;

	/** Most passes (an offset origin moves as the chain turns). */
	UPROPERTY(EditAnywhere, Category = "Solver|Sinew", meta = (ClampMin = "1", UIMin = "1"))
	int32 MaxIterations = 16;

	FAnimNode_SinewAim() = default;

	sinew_unreal::AimNodeParams MakeParams() const;

	// FAnimNode_SkeletalControlBase interface
	virtual bool IsValidToEvaluate(const USkeleton* Skeleton, const FBoneContainer& RequiredBones) override;
	// End of FAnimNode_SkeletalControlBase interface

protected:
	virtual const TCHAR* GetSinewName() const override { return TEXT("Sinew Aim"); }
	virtual SinewIK::FTargetSpace GetEffector() const override;
	virtual void CacheChain(const FBoneContainer& RequiredBones, TArray<int32>& OutChain) override;
	virtual FString GetChainName() const override;
	virtual SinewStatus Solve(FComponentSpacePoseContext& Output, const FTransform& EffectorCS,
		SinewIK::FChainBuffers& Buffers, uint32 Count) override;

private:
	/** Created on first evaluation; a copied node starts without one (never shared). */
	sinew_unreal::AimInstance Native;
};
