// Shared by the FABRIK and CCDIK nodes: the chain from root to tip, gathered in doubles.

#pragma once

#include "CoreMinimal.h"
#include "BoneContainer.h"
#include "BonePose.h"
#include "SinewNative.h"

namespace SinewIK
{
	/** Per-evaluation buffers; inline storage covers chains of up to 32 bones without allocating. */
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

	/**
	 * Compact pose indices from Root to Tip (root first), or none when Tip is not Root or one of
	 * its descendants. Called from InitializeBoneReferences, so evaluations do not walk parents.
	 */
	void CacheChain(const FBoneContainer& RequiredBones, const FBoneReference& Root, const FBoneReference& Tip,
		TArray<int32>& OutChain);

	/**
	 * Copies the chain's component-space transforms (and the rotation of the root's parent) into
	 * Buffers, in doubles. Returns the number of bones.
	 */
	uint32 GatherChain(FCSPose<FCompactPose>& Pose, const TArray<int32>& Chain, FChainBuffers& Buffers);
}
