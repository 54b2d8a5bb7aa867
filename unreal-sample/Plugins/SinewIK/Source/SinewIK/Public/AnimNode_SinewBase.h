#pragma once

#include "CoreMinimal.h"
#include "BoneContainer.h"
#include "BonePose.h"
#include "BoneControllers/AnimNode_SkeletalControlBase.h"
#include "SinewNative.h"
#include "AnimNode_SinewBase.generated.h"

namespace SinewIK
{
	/**
	 * A chain in component space, in doubles, with the float scratch a solve works through and
	 * the rotation of the root's parent; inline storage covers chains of up to 32 bones without
	 * allocating.
	 */
	struct FChainBuffers
	{
		TArray<sinew_unreal::DTransform, TInlineAllocator<32>> Chain;
		TArray<SinewTransform, TInlineAllocator<32>> Scratch;
		sinew_unreal::DQuat RootParentRotation;
		bool bHasRootParent = false;

		const sinew_unreal::DQuat* RootParentRotationPtr() const
		{
			return bHasRootParent ? &RootParentRotation : nullptr;
		}
	};

	/** The compact-pose indices of the bones from `Root` down to `Tip` (initializing both
	 * references), or none when either is missing or `Tip` is not below `Root`. */
	SINEWIK_API void CacheBoneChain(FBoneReference& Root, FBoneReference& Tip, const FBoneContainer& RequiredBones,
		TArray<int32>& OutChain);

	/** "Root -> Tip", the name a chain node logs. */
	SINEWIK_API FString BoneChainName(const FBoneReference& Root, const FBoneReference& Tip);
}

/**
 * What every Sinew node shares: the library check, the status of the last solve (logged once per
 * change, not every frame), the debug line, and the hand-over of the solved bones to the engine.
 * Nodes derive from it (USTRUCTs cannot be abstract, so its hooks have neutral defaults).
 */
USTRUCT()
struct SINEWIK_API FAnimNode_SinewBase : public FAnimNode_SkeletalControlBase
{
	GENERATED_BODY()

	SinewStatus GetLastStatus() const { return LastStatus; }

	// FAnimNode_Base interface
	virtual void GatherDebugData(FNodeDebugData& DebugData) override;
	// End of FAnimNode_Base interface

	// FAnimNode_SkeletalControlBase interface
	virtual bool IsValidToEvaluate(const USkeleton* Skeleton, const FBoneContainer& RequiredBones) override;
	// End of FAnimNode_SkeletalControlBase interface

protected:
	/** The node's name in the log. */
	virtual const TCHAR* GetSinewName() const { return TEXT("Sinew"); }
	/** What the debug line shows between Alpha and the status (bones, error). */
	virtual FString GetDebugDetails() const { return FString(); }

	/**
	 * Records the solve's status (a failure is logged with the library's message, once) and, when
	 * it is OK, appends (Indices[i], Transforms[i]) sorted by bone index to OutBoneTransforms.
	 */
	void Finish(SinewStatus Status, const int32* Indices, const sinew_unreal::DTransform* Transforms, int32 Count,
		TArray<FBoneTransform>& OutBoneTransforms);

	SinewStatus LastStatus = SINEW_STATUS_OK;
};

/**
 * The IK nodes (two-bone, FABRIK, CCDIK): a chain of bones cached whenever the required bones
 * change, an effector resolved through EffectorTarget in its space, and the chain solved in
 * component space, in doubles, then handed to the engine.
 */
USTRUCT()
struct SINEWIK_API FAnimNode_SinewIKBase : public FAnimNode_SinewBase
{
	GENERATED_BODY()

	/** Bone or socket for the effector's bone and parent-bone spaces. */
	UPROPERTY(EditAnywhere, Category = Effector)
	FBoneSocketTarget EffectorTarget;

	/** Outcome of the last evaluation, for debugging. */
	const SinewIkResult& GetLastResult() const { return LastResult; }

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

	virtual FString GetDebugDetails() const override;

	/** The effector property and its space. */
	virtual SinewIK::FTargetSpace GetEffector() const { return SinewIK::FTargetSpace(); }
	/**
	 * Initializes the node's bone references and writes the chain's compact pose indices, root
	 * first, into OutChain (left empty when a bone is missing).
	 */
	virtual void CacheChain(const FBoneContainer& /*RequiredBones*/, TArray<int32>& /*OutChain*/) {}
	/** The bones the debug line names. */
	virtual FString GetChainName() const { return FString(); }
	/** Solves Buffers.Chain (Count bones, component space) in place toward EffectorCS into LastResult. */
	virtual SinewStatus Solve(FComponentSpacePoseContext& /*Output*/, const FTransform& /*EffectorCS*/,
		SinewIK::FChainBuffers& /*Buffers*/, uint32 /*Count*/)
	{
		return SINEW_STATUS_OK;
	}

	/** Compact pose indices of the chain, root first, refreshed when the required bones change. */
	TArray<int32> CachedChain;
	SinewIkResult LastResult{};
};

/**
 * FABRIK and CCDIK: the chain from RootBone to TipBone, collected by walking parents from the
 * tip as Unreal's nodes do, and the properties their solvers share (Unreal's names and defaults).
 */
USTRUCT()
struct SINEWIK_API FAnimNode_SinewChainIKBase : public FAnimNode_SinewIKBase
{
	GENERATED_BODY()

	/** Last bone of the chain. */
	UPROPERTY(EditAnywhere, Category = Solver)
	FBoneReference TipBone;

	/** First bone of the chain (an ancestor of TipBone). */
	UPROPERTY(EditAnywhere, Category = Solver)
	FBoneReference RootBone;

	/** Distance from the target, in centimetres, at which the tip counts as arrived. */
	UPROPERTY(EditAnywhere, Category = Solver, meta = (ClampMin = "0.001", UIMin = "0.001"))
	float Precision = 1.0f;

	/** Most iterations (CCD: sweeps over the chain) per evaluation. */
	UPROPERTY(EditAnywhere, Category = Solver, meta = (ClampMin = "1", UIMin = "1"))
	int32 MaxIterations = 10;

	/** Sinew: stop early when an iteration improves the reach by less than 0.1 %. */
	UPROPERTY(EditAnywhere, Category = "Solver|Sinew")
	bool bStopWhenStalled = true;

	// FAnimNode_SkeletalControlBase interface
	virtual bool IsValidToEvaluate(const USkeleton* Skeleton, const FBoneContainer& RequiredBones) override;
	// End of FAnimNode_SkeletalControlBase interface

protected:
	virtual void CacheChain(const FBoneContainer& RequiredBones, TArray<int32>& OutChain) override;
	virtual FString GetChainName() const override;

	/** Fills the properties shared by FABRIK and CCD into a node's parameters. */
	void MakeChainParams(sinew_unreal::ChainNodeParams& Params) const;

	/** Solves the gathered chain with a FABRIK or CCD solver toward EffectorCS. */
	template <class Solver>
	SinewStatus SolveChain(Solver* Native, const FTransform& EffectorCS, const sinew_unreal::DQuat* EffectorRotation,
		SinewIK::FChainBuffers& Buffers, uint32 Count)
	{
		return sinew_unreal::solve_chain(Native, Buffers.Chain.GetData(), Count, Buffers.RootParentRotationPtr(),
			SinewIK::ToSinew(EffectorCS.GetTranslation()), EffectorRotation, Buffers.Scratch.GetData(),
			Buffers.Chain.GetData(), &LastResult);
	}
};
