// UNREAL SHIM: syntax check only, NOT Unreal Engine and not a substitute for an engine build.
// Declares just what the SinewIK plugin uses (see tests/unreal-shim/README.md).
#pragma once

#include "CoreMinimal.h"
#include "BonePose.h"

struct FAnimInstanceProxy;
struct FAnimNode_Base;
class USkeleton;

struct FAnimationBaseContext
{
	FAnimInstanceProxy* AnimInstanceProxy = nullptr;
};
struct FAnimationInitializeContext : FAnimationBaseContext {};
struct FAnimationCacheBonesContext : FAnimationBaseContext {};
struct FAnimationUpdateContext : FAnimationBaseContext {};

struct FComponentSpacePoseContext : FAnimationBaseContext
{
	FCSPose<FCompactPose> Pose;
};

struct FNodeDebugData
{
	FString GetNodeName(FAnimNode_Base* Node);
	void AddDebugItem(FString DebugData, bool bPoseSource = false);
};

struct FComponentSpacePoseLink
{
	void GatherDebugData(FNodeDebugData& DebugData);
};

struct FAnimNode_Base
{
	virtual ~FAnimNode_Base() = default;
	virtual void Initialize_AnyThread(const FAnimationInitializeContext& Context);
	virtual void CacheBones_AnyThread(const FAnimationCacheBonesContext& Context);
	virtual void Update_AnyThread(const FAnimationUpdateContext& Context);
	virtual void EvaluateComponentSpace_AnyThread(FComponentSpacePoseContext& Output);
	virtual void GatherDebugData(FNodeDebugData& DebugData);
};
