// The Sinew headers as the SinewIK module sees them, and the conversions between Unreal's
// double-precision math types and the engine-independent helpers of sinew_unreal.hpp.

#pragma once

#include "CoreMinimal.h"
#include "BonePose.h"
#include "Animation/AnimNodeBase.h"
#include "Animation/AnimTypes.h"

THIRD_PARTY_INCLUDES_START
#include "sinew.h"
#include "sinew.hpp"
#include "sinew_unreal.hpp"
THIRD_PARTY_INCLUDES_END

struct FBoneSocketTarget;

namespace SinewIK
{
	inline sinew_unreal::DVec3 ToSinew(const FVector& V)
	{
		return sinew_unreal::DVec3{V.X, V.Y, V.Z};
	}

	inline sinew_unreal::DQuat ToSinew(const FQuat& Q)
	{
		return sinew_unreal::DQuat{Q.X, Q.Y, Q.Z, Q.W};
	}

	inline sinew_unreal::DTransform ToSinew(const FTransform& T)
	{
		sinew_unreal::DTransform Out;
		Out.rotation = ToSinew(T.GetRotation());
		Out.translation = ToSinew(T.GetTranslation());
		Out.scale = ToSinew(T.GetScale3D());
		return Out;
	}

	inline FVector ToUnreal(const sinew_unreal::DVec3& V)
	{
		return FVector(V.x, V.y, V.z);
	}

	inline FQuat ToUnreal(const sinew_unreal::DQuat& Q)
	{
		return FQuat(Q.x, Q.y, Q.z, Q.w);
	}

	inline FTransform ToUnreal(const sinew_unreal::DTransform& T)
	{
		return FTransform(ToUnreal(T.rotation), ToUnreal(T.translation), ToUnreal(T.scale));
	}

	/** True once the module has loaded a library that speaks this header's ABI. */
	SINEWIK_API bool IsLibraryReady();

	/** A target (effector, joint target) as a node's properties give it: an offset in a space. */
	struct FTargetSpace
	{
		EBoneControlSpace Space = BCS_ComponentSpace;
		FTransform Offset = FTransform::Identity;
	};

	/**
	 * A target in component space, as Unreal's IK nodes resolve it: bone space through the socket
	 * target, the other spaces through FAnimationRuntime::ConvertBoneSpaceTransformToCS.
	 */
	SINEWIK_API FTransform TargetTransformInComponentSpace(FComponentSpacePoseContext& Output, FBoneSocketTarget& Target,
		const FTargetSpace& Where);

	/** Bone and parent-bone spaces need the target's bone (or socket), as Unreal's nodes check. */
	SINEWIK_API bool IsTargetValid(const FBoneSocketTarget& Target, EBoneControlSpace Space,
		const FBoneContainer& RequiredBones);

	/**
	 * Logs a failed solve once per change of status (not every frame), with the library's
	 * message, and remembers the status in InOutLastStatus.
	 */
	SINEWIK_API void ReportStatus(const TCHAR* NodeName, SinewStatus Status, SinewStatus& InOutLastStatus);

	/** Fills Out with (Indices[i], Transforms[i]) sorted by bone index, as FBoneTransforms. */
	SINEWIK_API void AppendSortedBoneTransforms(const int32* Indices, const sinew_unreal::DTransform* Transforms,
		int32 Count, TArray<FBoneTransform>& Out);
}
