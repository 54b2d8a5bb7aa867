#pragma once

#include "CoreMinimal.h"
#include "AnimNode_SinewBase.h"
#include "AnimNode_SinewMultiFabrik.generated.h"

/** One effector of the multi-effector FABRIK node: a bone ending a branch of the tree, and its goal. */
USTRUCT(BlueprintType)
struct SINEWIK_API FSinewMultiFabrikEffector
{
	GENERATED_BODY()

	/** The effector bone: below RootBone, and neither above nor below another effector's bone. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = Effector)
	FBoneReference Bone;

	/** Goal of the bone; with a bone space, the offset from EffectorTarget. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = Effector)
	FTransform EffectorTransform = FTransform::Identity;

	/** Reference frame of EffectorTransform. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = Effector)
	TEnumAsByte<EBoneControlSpace> EffectorTransformSpace = BCS_ComponentSpace;

	/** Bone or socket for the bone and parent-bone spaces. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = Effector)
	FBoneSocketTarget EffectorTarget;

	/**
	 * How hard this effector pulls where branches meet (relative to the others); 0 turns it off
	 * and its branch keeps the animated rotations. Negative values count as 0.
	 */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = Effector, meta = (ClampMin = "0.0", UIMin = "0.0", UIMax = "1.0"))
	float Weight = 1.0f;

	/** The bone takes EffectorTransform's rotation; otherwise the node's EffectorRotationSource applies. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = Effector)
	bool bUseRotation = false;
};

/**
 * Multi-effector FABRIK solved by Sinew: the tree from RootBone to several effector bones (a
 * spine to both hands, a palm to its fingertips) reaching toward all their goals at once, branches
 * meeting at the weighted centroid of where they pull. Properties follow Unreal's FABRIK node
 * (Precision in centimetres, MaxIterations, EffectorRotationSource); RootBone stays in place.
 */
USTRUCT(BlueprintInternalUseOnly)
struct SINEWIK_API FAnimNode_SinewMultiFabrik : public FAnimNode_SinewBase
{
	GENERATED_BODY()

	/** Root of the tree (an ancestor of every effector bone); it rotates but does not move. */
	UPROPERTY(EditAnywhere, Category = Solver)
	FBoneReference RootBone;

	/** The effectors; the array can be shown as a pin to drive the goals from the graph. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = Effectors, meta = (PinHiddenByDefault))
	TArray<FSinewMultiFabrikEffector> Effectors;

	/** Distance from its goal, in centimetres, at which each effector counts as arrived. */
	UPROPERTY(EditAnywhere, Category = Solver, meta = (ClampMin = "0.001", UIMin = "0.001"))
	float Precision = 1.0f;

	/** Most iterations of an attempt per evaluation (a solve that stops short of targets it may
	 * reach retries, up to six attempts; README, "Multi-effector FABRIK"). */
	UPROPERTY(EditAnywhere, Category = Solver, meta = (ClampMin = "1", UIMin = "1"))
	int32 MaxIterations = 10;

	/** Sinew: stop early when two iterations running each improve the reach by less than 0.1 %. */
	UPROPERTY(EditAnywhere, Category = "Solver|Sinew")
	bool bStopWhenStalled = true;

	/** Rotation of effector bones without bUseRotation after the solve. */
	UPROPERTY(EditAnywhere, Category = Solver)
	TEnumAsByte<EBoneRotationSource> EffectorRotationSource = BRS_KeepLocalSpaceRotation;

	FAnimNode_SinewMultiFabrik() = default;

	sinew_unreal::MultiFabrikNodeParams MakeParams() const;

	/** Outcome of the last evaluation per effector, for debugging. */
	const TArray<SinewIkResult>& GetLastResults() const { return LastResults; }

	// FAnimNode_Base interface
	virtual void Initialize_AnyThread(const FAnimationInitializeContext& Context) override;
	// End of FAnimNode_Base interface

	// FAnimNode_SkeletalControlBase interface
	virtual void EvaluateSkeletalControl_AnyThread(FComponentSpacePoseContext& Output, TArray<FBoneTransform>& OutBoneTransforms) override;
	virtual bool IsValidToEvaluate(const USkeleton* Skeleton, const FBoneContainer& RequiredBones) override;
	// End of FAnimNode_SkeletalControlBase interface

protected:
	// FAnimNode_SkeletalControlBase interface
	virtual void InitializeBoneReferences(const FBoneContainer& RequiredBones) override;
	// End of FAnimNode_SkeletalControlBase interface

	virtual const TCHAR* GetSinewName() const override { return TEXT("Sinew Multi-Effector FABRIK"); }
	virtual FString GetDebugDetails() const override;

private:
	/** The tree's compact pose indices, sorted (root first), refreshed when the required bones change. */
	TArray<int32> CachedBones;
	/** Each effector's slot in CachedBones, and the bone names they were cached for. */
	TArray<uint32> CachedEffectorSlots;
	TArray<FName> CachedEffectorNames;
	TArray<SinewIkResult> LastResults;
	/** Created with the cached tree and on first evaluation; a copied node starts without them. */
	sinew_unreal::TreeSkeleton NativeTree;
	sinew_unreal::MultiFabrikInstance Native;
};
