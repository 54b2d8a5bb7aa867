#pragma once

#include "CoreMinimal.h"
#include "AnimNode_SinewBase.h"
#include "AnimNode_SinewFabrik.generated.h"

/**
 * FABRIK solved by Sinew: a drop-in for Unreal's FABRIK node (same properties and defaults:
 * root and tip bones, effector transform and space, Precision in centimetres, MaxIterations,
 * EffectorRotationSource). Bone lengths are kept; the chain's root stays in place.
 */
USTRUCT(BlueprintInternalUseOnly)
struct SINEWIK_API FAnimNode_SinewFabrik : public FAnimNode_SinewChainIKBase
{
	GENERATED_BODY()

	/** Target of the tip bone; with a bone space, the offset from EffectorTarget. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = Effector, meta = (PinShownByDefault))
	FTransform EffectorTransform = FTransform::Identity;

	/** Reference frame of EffectorTransform. */
	UPROPERTY(EditAnywhere, Category = Effector)
	TEnumAsByte<EBoneControlSpace> EffectorTransformSpace = BCS_ComponentSpace;

	/** Rotation of the tip bone after the solve. */
	UPROPERTY(EditAnywhere, Category = Effector)
	TEnumAsByte<EBoneRotationSource> EffectorRotationSource = BRS_KeepLocalSpaceRotation;

	FAnimNode_SinewFabrik() = default;

	sinew_unreal::FabrikNodeParams MakeParams() const;

protected:
	virtual const TCHAR* GetSinewName() const override { return TEXT("Sinew FABRIK"); }
	virtual SinewIK::FTargetSpace GetEffector() const override;
	virtual SinewStatus Solve(FComponentSpacePoseContext& Output, const FTransform& EffectorCS,
		SinewIK::FChainBuffers& Buffers, uint32 Count) override;

private:
	/** Created on first evaluation; a copied node starts without one (never shared). */
	sinew_unreal::FabrikInstance Native;
};
