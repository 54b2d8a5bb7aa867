// UNREAL SHIM: syntax check only, NOT Unreal Engine and not a substitute for an engine build.
// Declares just what the SinewIK plugin uses (see tests/unreal-shim/README.md).
#pragma once

#include "CoreMinimal.h"

struct FCompactPoseBoneIndex
{
	explicit FCompactPoseBoneIndex(int32 InBoneIndex) : BoneIndex(InBoneIndex) {}
	int32 GetInt() const { return BoneIndex; }
	bool IsValid() const { return BoneIndex != INDEX_NONE; }
	bool operator==(const FCompactPoseBoneIndex& Rhs) const { return BoneIndex == Rhs.BoneIndex; }
	bool operator!=(const FCompactPoseBoneIndex& Rhs) const { return BoneIndex != Rhs.BoneIndex; }
	bool operator==(int32 Rhs) const { return BoneIndex == Rhs; }
	bool operator!=(int32 Rhs) const { return BoneIndex != Rhs; }

private:
	int32 BoneIndex;
};

struct FBoneContainer
{
	FCompactPoseBoneIndex GetParentBoneIndex(const FCompactPoseBoneIndex& BoneIndex) const;
	int32 GetCompactPoseNumBones() const;
};

struct FBoneReference
{
	FName BoneName;
	int32 BoneIndex = INDEX_NONE;

	bool Initialize(const FBoneContainer& RequiredBones);
	bool IsValidToEvaluate(const FBoneContainer& RequiredBones) const;
	FCompactPoseBoneIndex GetCompactPoseIndex(const FBoneContainer& RequiredBones) const;
};
