#pragma once

#include "CoreMinimal.h"
#include "AnimNode_SinewBase.h"
#include "AnimNode_SinewTwoBoneIK.generated.h"

/**
 * Two-bone IK solved by Sinew: a drop-in for Unreal's Two Bone IK node (same properties and
 * defaults: IK bone, effector and joint target with their spaces, stretch limits, end-bone
 * rotation flags, twist) with Sinew's extensions (soften, pole weight, optional joint target).
 * Positions are component-space centimetres in doubles; the solve runs in floats relative to the
 * upper limb, so precision does not depend on the distance from the component origin.
 */
USTRUCT(BlueprintInternalUseOnly)
struct SINEWIK_API FAnimNode_SinewTwoBoneIK : public FAnimNode_SinewIKBase
{
	GENERATED_BODY()

	/** The end bone (hand, foot); its parent and grandparent are the lower and upper limb. */
	UPROPERTY(EditAnywhere, Category = IK)
	FBoneReference IKBone;

	/** Let both limbs lengthen toward far targets. */
	UPROPERTY(EditAnywhere, Category = IK)
	bool bAllowStretching = false;

	/** Reach ratio (distance / limb length) at which stretching starts, e.g. 0.9. */
	UPROPERTY(EditAnywhere, Category = IK, meta = (EditCondition = "bAllowStretching", ClampMin = "0.0", UIMin = "0.0"))
	double StartStretchRatio = 1.0;

	/** Largest stretch of the limb, e.g. 1.5 for 150 % of its length. */
	UPROPERTY(EditAnywhere, Category = IK, meta = (EditCondition = "bAllowStretching", ClampMin = "1.0", UIMin = "1.0"))
	double MaxStretchScale = 1.2;

	/** The end bone takes the effector's rotation (effector in bone or parent-bone space only). */
	UPROPERTY(EditAnywhere, Category = IK)
	bool bTakeRotationFromEffectorSpace = false;

	/** The end bone keeps its rotation relative to the lower limb. */
	UPROPERTY(EditAnywhere, Category = IK)
	bool bMaintainEffectorRelRot = false;

	/** When false, the lower limb keeps its twist about its own axis relative to the upper limb. */
	UPROPERTY(EditAnywhere, Category = IK)
	bool bAllowTwist = true;

	/** Sinew: below 1, the reach eases in beyond this fraction of the limb length (no snapping to straight). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "IK|Sinew", meta = (ClampMin = "0.01", ClampMax = "1.0", PinHiddenByDefault))
	float Soften = 1.0f;

	/** Sinew: how far the bend turns from the animated one toward the joint target. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "IK|Sinew", meta = (ClampMin = "0.0", ClampMax = "1.0", PinHiddenByDefault))
	float PoleWeight = 1.0f;

	/** Target location to reach, in EffectorLocationSpace. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = Effector, meta = (PinShownByDefault))
	FVector EffectorLocation = FVector::ZeroVector;

	/** Reference frame of EffectorLocation. */
	UPROPERTY(EditAnywhere, Category = Effector)
	TEnumAsByte<EBoneControlSpace> EffectorLocationSpace = BCS_ComponentSpace;

	/** Sinew: when false there is no joint target and the limb keeps its animated bend. */
	UPROPERTY(EditAnywhere, Category = JointTarget)
	bool bUseJointTarget = true;

	/** Location the joint (elbow, knee) bends toward, in JointTargetLocationSpace. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = JointTarget, meta = (PinShownByDefault))
	FVector JointTargetLocation = FVector::ZeroVector;

	/** Reference frame of JointTargetLocation. */
	UPROPERTY(EditAnywhere, Category = JointTarget)
	TEnumAsByte<EBoneControlSpace> JointTargetLocationSpace = BCS_ComponentSpace;

	/** Bone or socket for bone and parent-bone spaces. */
	UPROPERTY(EditAnywhere, Category = JointTarget)
	FBoneSocketTarget JointTarget;

	FAnimNode_SinewTwoBoneIK() = default;

	/** The properties as the engine-independent mapping sees them. */
	sinew_unreal::TwoBoneIkNodeParams MakeParams() const;

	// FAnimNode_Base interface
	virtual void Initialize_AnyThread(const FAnimationInitializeContext& Context) override;
	// End of FAnimNode_Base interface

	// FAnimNode_SkeletalControlBase interface
	virtual bool IsValidToEvaluate(const USkeleton* Skeleton, const FBoneContainer& RequiredBones) override;
	// End of FAnimNode_SkeletalControlBase interface

protected:
	virtual const TCHAR* GetSinewName() const override { return TEXT("Sinew Two Bone IK"); }
	virtual SinewIK::FTargetSpace GetEffector() const override;
	virtual void CacheChain(const FBoneContainer& RequiredBones, TArray<int32>& OutChain) override;
	virtual FString GetChainName() const override;
	virtual SinewStatus Solve(FComponentSpacePoseContext& Output, const FTransform& EffectorCS,
		SinewIK::FChainBuffers& Buffers, uint32 Count) override;

private:
	/** Created on first evaluation; a copied node starts without one (never shared). */
	sinew_unreal::TwoBoneIkInstance Native;
};
