// UNREAL SHIM: syntax check only, NOT Unreal Engine and not a substitute for an engine build.
// Declares just what the SinewIK plugin uses (see tests/unreal-shim/README.md).
#pragma once

#include "CoreMinimal.h"
#include "BonePose.h"

struct FAnimInstanceProxy;

struct FBoneSocketTarget
{
	bool bUseSocket = false;
	FBoneReference BoneReference;

	void InitializeBoneReferences(const FBoneContainer& RequiredBones);
	void Initialize(const FAnimInstanceProxy* InAnimInstanceProxy);
	bool IsValidToEvaluate(const FBoneContainer& RequiredBones) const;
	FCompactPoseBoneIndex GetCompactPoseBoneIndex() const;
	FTransform GetTargetTransform(const FTransform& TargetOffset, FCSPose<FCompactPose>& InPose,
		const FTransform& InComponentToWorld) const;
	FTransform GetTargetTransform(const FVector& TargetOffset, FCSPose<FCompactPose>& InPose,
		const FTransform& InComponentToWorld) const;
};
