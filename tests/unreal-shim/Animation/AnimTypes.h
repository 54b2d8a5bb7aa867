// UNREAL SHIM: syntax check only, NOT Unreal Engine and not a substitute for an engine build.
// Declares just what the SinewIK plugin uses (see tests/unreal-shim/README.md).
#pragma once

#include "CoreMinimal.h"

UENUM()
enum EBoneControlSpace : int
{
	BCS_WorldSpace,
	BCS_ComponentSpace,
	BCS_ParentBoneSpace,
	BCS_BoneSpace,
	BCS_MAX,
};

UENUM()
enum EBoneRotationSource : int
{
	BRS_KeepComponentSpaceRotation,
	BRS_KeepLocalSpaceRotation,
	BRS_CopyFromTarget,
	BRS_MAX,
};
