// UNREAL SHIM: syntax check only, NOT Unreal Engine and not a substitute for an engine build.
// Declares just what the SinewIK plugin uses (see tests/unreal-shim/README.md).
#pragma once

#include "CoreMinimal.h"
#include "BoneContainer.h"

struct FCompactPose
{
	const FBoneContainer& GetBoneContainer() const;
	FCompactPoseBoneIndex GetParentBoneIndex(const FCompactPoseBoneIndex& BoneIndex) const;
};

template <class PoseType>
struct FCSPose
{
	const PoseType& GetPose() const;
	const FTransform& GetComponentSpaceTransform(FCompactPoseBoneIndex BoneIndex);
	const FTransform& GetLocalSpaceTransform(FCompactPoseBoneIndex BoneIndex);
};

struct FBoneTransform
{
	FBoneTransform(FCompactPoseBoneIndex InBoneIndex, const FTransform& InTransform)
		: BoneIndex(InBoneIndex), Transform(InTransform) {}

	FCompactPoseBoneIndex BoneIndex;
	FTransform Transform;
};
